// Draws one flat-illustration SVG cover per seed book into public/covers/.
// Run: npx tsx scripts/generate-covers.ts
// Everything is SVG primitives: no fonts are fetched, no images are embedded, no scripts.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seedBooks, type SeedBook } from '../seeds/books.ts';

const SERIF = "Georgia, 'Times New Roman', serif";
const ROUNDED = "'Arial Rounded MT Bold', 'Trebuchet MS', 'Segoe UI', Verdana, sans-serif";

interface Design {
  sky: [string, string];
  title: string;
  titleShadow?: string;
  band: string;
  bandText: string;
  scene: (id: string) => string;
}

// ---------- small drawing helpers ----------

const r1 = (n: number): number => Math.round(n * 10) / 10;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Deterministic pseudo-random numbers, so the covers are the same on every run. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function dots(n: number, seed: number, box: [number, number, number, number], fill: string, rMin = 1.5, rMax = 3.5): string {
  const rand = rng(seed);
  const [x0, y0, x1, y1] = box;
  let out = `<g fill="${fill}">`;
  for (let i = 0; i < n; i++) {
    out += `<circle cx="${r1(x0 + rand() * (x1 - x0))}" cy="${r1(y0 + rand() * (y1 - y0))}" r="${r1(rMin + rand() * (rMax - rMin))}"/>`;
  }
  return out + '</g>';
}

function star(cx: number, cy: number, outer: number, fill: string, inner = outer * 0.45): string {
  const pts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const r = i % 2 === 0 ? outer : inner;
    pts.push(`${r1(cx + r * Math.cos(a))},${r1(cy + r * Math.sin(a))}`);
  }
  return `<polygon points="${pts.join(' ')}" fill="${fill}"/>`;
}

function cloud(x: number, y: number, s: number, fill: string): string {
  return (
    `<g fill="${fill}"><ellipse cx="${x}" cy="${y}" rx="${r1(70 * s)}" ry="${r1(26 * s)}"/>` +
    `<circle cx="${r1(x - 25 * s)}" cy="${r1(y - 18 * s)}" r="${r1(28 * s)}"/>` +
    `<circle cx="${r1(x + 18 * s)}" cy="${r1(y - 26 * s)}" r="${r1(36 * s)}"/></g>`
  );
}

function button(cx: number, cy: number, r: number, fill: string): string {
  const h = r1(r * 0.28);
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>` +
    `<g fill="#000" fill-opacity=".35"><circle cx="${cx - h}" cy="${cy - h}" r="${r1(r * 0.12)}"/><circle cx="${cx + h}" cy="${cy - h}" r="${r1(r * 0.12)}"/>` +
    `<circle cx="${cx - h}" cy="${cy + h}" r="${r1(r * 0.12)}"/><circle cx="${cx + h}" cy="${cy + h}" r="${r1(r * 0.12)}"/></g>`
  );
}

function flower(cx: number, cy: number, petal: string, middle: string, s = 1): string {
  let out = `<g fill="${petal}">`;
  for (let i = 0; i < 5; i++) {
    const a = (i * 2 * Math.PI) / 5;
    out += `<circle cx="${r1(cx + 12 * s * Math.cos(a))}" cy="${r1(cy + 12 * s * Math.sin(a))}" r="${r1(10 * s)}"/>`;
  }
  return out + `</g><circle cx="${cx}" cy="${cy}" r="${r1(7 * s)}" fill="${middle}"/>`;
}

function pine(x: number, base: number, h: number, fill: string): string {
  const w = h * 0.42;
  const tier = (top: number, bottom: number, half: number): string => `M${r1(x)} ${r1(top)}L${r1(x + half)} ${r1(bottom)}H${r1(x - half)}Z`;
  return `<path fill="${fill}" d="${tier(base - h, base - h * 0.45, w * 0.6)}${tier(base - h * 0.75, base - h * 0.2, w * 0.8)}${tier(base - h * 0.5, base, w)}"/>`;
}

/** A hedgehog's spiky back: a zig-zag around the top half of an ellipse. */
function spikyArc(cx: number, cy: number, rx: number, ry: number, spikes: number, depth: number): string {
  const pts: string[] = [];
  for (let i = 0; i <= spikes * 2; i++) {
    const a = Math.PI + (i * Math.PI) / (spikes * 2);
    const k = i % 2 === 0 ? 1 - depth : 1;
    pts.push(`${r1(cx + rx * k * Math.cos(a))},${r1(cy + ry * k * Math.sin(a))}`);
  }
  return pts.join(' ');
}

// ---------- one scene per book ----------

const designs: Record<string, Design> = {
  'moon-garden': {
    sky: ['#1b2550', '#41549a'],
    title: '#fff3c4',
    titleShadow: '#0f1733',
    band: '#14203f',
    bandText: '#f7e7b4',
    scene: () =>
      dots(34, 7, [20, 30, 580, 520], '#fff6d8') +
      '<circle cx="462" cy="340" r="74" fill="#fdf1c7"/><g fill="#f1dc9c"><circle cx="440" cy="320" r="12"/><circle cx="482" cy="366" r="9"/><circle cx="488" cy="318" r="6"/></g>' +
      '<path fill="#2e5e4c" d="M0 560Q150 470 300 540T600 515V900H0Z"/>' +
      '<g stroke="#6fae7c" stroke-width="5" fill="none"><path d="M90 640Q96 600 86 560"/><path d="M160 650Q150 610 170 590"/><path d="M510 640Q500 600 512 566"/><path d="M560 640Q570 610 556 590"/></g>' +
      flower(86, 556, '#f4f1ff', '#ffd66b', 1.3) +
      flower(170, 586, '#e9e4ff', '#ffd66b') +
      flower(512, 560, '#f4f1ff', '#ffd66b', 1.3) +
      flower(556, 586, '#e9e4ff', '#ffd66b') +
      '<path fill="#23483b" d="M0 650Q200 590 380 650T600 640V900H0Z"/>' +
      `<polygon fill="#7a5236" points="${spikyArc(290, 716, 112, 92, 11, 0.2)}"/>` +
      '<ellipse cx="290" cy="722" rx="100" ry="30" fill="#c99a6b"/>' +
      '<path fill="#dcb68c" d="M360 672Q420 676 446 712Q420 742 360 740Z"/>' +
      '<circle cx="448" cy="710" r="9" fill="#2b1b12"/><circle cx="396" cy="698" r="6" fill="#2b1b12"/><circle cx="398" cy="696" r="2" fill="#fff"/>' +
      '<ellipse cx="388" cy="724" rx="10" ry="6" fill="#f29c9c" opacity=".7"/>' +
      '<g fill="#5a3a24"><ellipse cx="230" cy="748" rx="18" ry="9"/><ellipse cx="350" cy="748" rx="18" ry="9"/></g>' +
      dots(9, 21, [40, 560, 560, 780], '#ffe98a', 3, 5),
  },

  'otter-knows-the-way-home': {
    sky: ['#ffa98a', '#ffe2b6'],
    title: '#2d3a6b',
    titleShadow: '#fff1dc',
    band: '#2d3a6b',
    bandText: '#ffe2b6',
    scene: () =>
      '<circle cx="300" cy="500" r="96" fill="#ff8a5c"/>' +
      '<path fill="#e6866a" d="M0 520Q120 450 240 500T460 480T600 500V900H0Z"/>' +
      '<path fill="#7fb069" d="M0 540Q150 510 300 535T600 530V900H0Z"/>' +
      '<path fill="#4a90b8" d="M262 540C236 610 372 626 336 700S186 776 150 900H540C492 792 488 720 426 676S322 604 338 540Z"/>' +
      '<g fill="none" stroke="#bfe3f5" stroke-width="4" stroke-linecap="round"><path d="M300 600h30"/><path d="M380 650h26"/><path d="M250 780h40"/><path d="M420 800h30"/></g>' +
      '<g fill="none" stroke="#dff3ff" stroke-width="3"><ellipse cx="330" cy="736" rx="120" ry="22"/><ellipse cx="330" cy="740" rx="150" ry="32" opacity=".5"/></g>' +
      '<path fill="#8a5a3c" d="M230 720Q250 690 330 696Q420 700 440 722Q420 748 330 748Q250 748 230 720Z"/>' +
      '<path fill="#8a5a3c" d="M436 722Q480 716 504 730Q478 736 440 732Z"/>' +
      '<ellipse cx="332" cy="716" rx="70" ry="16" fill="#d2a47a"/>' +
      '<circle cx="232" cy="712" r="32" fill="#8a5a3c"/><circle cx="214" cy="684" r="9" fill="#6e4529"/>' +
      '<ellipse cx="216" cy="722" rx="18" ry="13" fill="#d2a47a"/><circle cx="208" cy="716" r="5" fill="#2b1b12"/><circle cx="236" cy="700" r="4.5" fill="#2b1b12"/>' +
      '<circle cx="300" cy="700" r="13" fill="#9aa3ad"/><g fill="#6e4529"><ellipse cx="286" cy="706" rx="9" ry="6"/><ellipse cx="314" cy="706" rx="9" ry="6"/></g>' +
      '<g stroke="#4f7a3b" stroke-width="5"><path d="M70 640V520"/><path d="M96 640V548"/><path d="M530 620V500"/><path d="M556 620V530"/></g>' +
      '<g fill="#7a4a2a"><rect x="63" y="520" width="14" height="40" rx="7"/><rect x="89" y="548" width="14" height="36" rx="7"/><rect x="523" y="500" width="14" height="40" rx="7"/><rect x="549" y="530" width="14" height="36" rx="7"/></g>' +
      '<g fill="none" stroke="#2d3a6b" stroke-width="4" stroke-linecap="round"><path d="M430 330q10-10 20 0q10-10 20 0"/><path d="M480 370q8-8 16 0q8-8 16 0"/></g>',
  },

  'marigold-keeps-the-lighthouse': {
    sky: ['#1d5f6b', '#5fb3b3'],
    title: '#ffffff',
    titleShadow: '#0e3c41',
    band: '#0e3c41',
    bandText: '#ffd35c',
    scene: () =>
      dots(18, 3, [20, 30, 580, 380], '#e8fbff', 1.5, 3) +
      '<path fill="#fff3b0" opacity=".35" d="M300 414L0 300V520Z"/><path fill="#fff3b0" opacity=".35" d="M300 414L600 330V500Z"/>' +
      '<path fill="#175e73" d="M0 620Q150 600 300 620T600 615V900H0Z"/>' +
      '<g fill="none" stroke="#bfeaf0" stroke-width="5" stroke-linecap="round"><path d="M30 690q20-14 40 0t40 0"/><path d="M420 700q20-14 40 0t40 0"/><path d="M470 760q20-14 40 0t40 0"/><path d="M60 770q20-14 40 0t40 0"/></g>' +
      '<path fill="#3d4a57" d="M150 700Q170 640 240 636L380 632Q450 640 470 700Z"/>' +
      '<path fill="#fdf7ee" d="M246 640L268 460H332L354 640Z"/>' +
      '<g fill="#e4572e"><path d="M251 600L255 566H345L349 600Z"/><path d="M259 530L263 496H337L341 530Z"/></g>' +
      '<rect x="252" y="448" width="96" height="14" rx="4" fill="#2b3a47"/>' +
      '<rect x="268" y="388" width="64" height="62" rx="6" fill="#ffd35c"/><path d="M290 390v58M310 390v58" stroke="#2b3a47" stroke-width="4"/>' +
      '<path fill="#e4572e" d="M258 392L300 350L342 392Z"/><circle cx="300" cy="346" r="7" fill="#2b3a47"/>' +
      '<rect x="286" y="592" width="28" height="44" rx="14" fill="#2b3a47"/>' +
      '<path fill="#f08a24" d="M396 636Q390 590 412 580Q434 590 428 636Z"/>' +
      '<path fill="none" stroke="#f08a24" stroke-width="9" stroke-linecap="round" d="M426 630Q456 626 452 596"/>' +
      '<circle cx="412" cy="570" r="20" fill="#f08a24"/><path fill="#f08a24" d="M396 562L398 540L410 554ZM428 562L426 540L414 554Z"/>' +
      '<g fill="#2b1b12"><circle cx="405" cy="568" r="3"/><circle cx="419" cy="568" r="3"/></g><path d="M409 577l3 3l3-3" fill="none" stroke="#2b1b12" stroke-width="2"/>' +
      '<g fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"><path d="M90 420q12-12 24 0q12-12 24 0"/><path d="M470 330q10-10 20 0q10-10 20 0"/></g>',
  },

  'a-kite-named-tuesday': {
    sky: ['#6fc0f0', '#d8f0ff'],
    title: '#173d6b',
    titleShadow: '#ffffff',
    band: '#173d6b',
    bandText: '#ffe07a',
    scene: () =>
      '<circle cx="90" cy="330" r="46" fill="#ffd23f"/>' +
      cloud(470, 330, 1, '#ffffff') +
      cloud(150, 470, 0.8, '#f4fbff') +
      '<path fill="none" stroke="#e76f51" stroke-width="3" d="M390 560Q430 620 400 660T430 740"/>' +
      '<g fill="#e76f51"><path d="M414 600l-14 -10v20zM414 600l14-10v20z"/></g><g fill="#f2a541"><path d="M404 650l-14-10v20zM404 650l14-10v20z"/></g><g fill="#1f8a70"><path d="M414 705l-14-10v20zM414 705l14-10v20z"/></g>' +
      '<path fill="#e76f51" d="M390 340L390 450L310 450Z"/><path fill="#f2a541" d="M390 340L470 450L390 450Z"/>' +
      '<path fill="#1f8a70" d="M310 450L390 450L390 560Z"/><path fill="#fff8ec" d="M390 450L470 450L390 560Z"/>' +
      '<path d="M390 340V560M310 450H470" stroke="#173d6b" stroke-width="3"/>' +
      '<path fill="#8cc152" d="M0 650Q160 600 320 660T600 640V900H0Z"/><path fill="#6fae3f" d="M0 720Q220 680 420 730T600 720V900H0Z"/>' +
      '<path fill="none" stroke="#173d6b" stroke-width="2.5" d="M390 560Q300 590 200 652"/>' +
      '<g stroke="#3b2a20" stroke-width="7" stroke-linecap="round"><path d="M162 720l-12 34M178 720l12 34"/></g>' +
      '<path stroke="#7a4a2a" stroke-width="7" stroke-linecap="round" d="M182 672l16-18M150 672l-14 28"/>' +
      '<path fill="#ffd23f" d="M146 660h40l12 66h-64z"/>' +
      '<circle cx="166" cy="638" r="22" fill="#7a4a2a"/><path fill="#2b1b12" d="M144 634q22-30 44 0q-10-10-22-8q-12-2-22 8z"/>' +
      flower(60, 760, '#fff', '#ffd23f', 0.8) +
      flower(520, 780, '#ffb3c1', '#fff', 0.8) +
      flower(280, 800, '#fff', '#ffd23f', 0.7),
  },

  'the-snail-who-raced-the-rain': {
    sky: ['#aeb0da', '#ece6f6'],
    title: '#4a2a6b',
    titleShadow: '#ffffff',
    band: '#4a2a6b',
    bandText: '#f4e3ff',
    scene: () =>
      cloud(400, 350, 1.5, '#8d8fb8') +
      cloud(200, 330, 0.9, '#9fa1c8') +
      '<g stroke="#5c6fcf" stroke-width="5" stroke-linecap="round">' +
      [
        [330, 420],
        [380, 450],
        [430, 410],
        [480, 460],
        [530, 420],
        [160, 400],
        [220, 430],
        [300, 480],
        [460, 520],
        [520, 500],
      ]
        .map(([x, y]) => `<path d="M${x} ${y}l-8 22"/>`)
        .join('') +
      '</g>' +
      '<path fill="#78b159" d="M0 600Q200 560 400 600T600 590V900H0Z"/>' +
      '<ellipse cx="500" cy="700" rx="90" ry="24" fill="#6c8fd6"/><ellipse cx="490" cy="694" rx="50" ry="9" fill="#a9c1f0"/>' +
      '<path fill="#4f9a3c" d="M40 780Q140 660 300 700Q190 770 40 780Z"/><path d="M60 772Q180 720 290 702" stroke="#3b7a2c" stroke-width="4" fill="none"/>' +
      '<g stroke="#4a2a6b" stroke-width="5" stroke-linecap="round" opacity=".5"><path d="M60 650h50M40 680h60M70 710h40"/></g>' +
      '<path fill="#d6cf8a" d="M140 700Q150 670 200 672L360 672Q392 650 398 620L402 600Q420 596 424 612Q430 680 390 700Z"/>' +
      '<g stroke="#b8ad62" stroke-width="4" stroke-linecap="round"><path d="M404 606L396 570M416 606L424 572"/></g>' +
      '<g fill="#4a2a6b"><circle cx="396" cy="568" r="6"/><circle cx="424" cy="570" r="6"/></g>' +
      '<path d="M402 630q6 6 12 0" fill="none" stroke="#4a2a6b" stroke-width="3" stroke-linecap="round"/>' +
      '<circle cx="270" cy="610" r="76" fill="#e9a23b"/>' +
      '<path fill="none" stroke="#b86b1d" stroke-width="8" stroke-linecap="round" d="M272 612a10 10 0 0 1 -18 -4a20 20 0 0 1 34 -12a32 32 0 0 1 -8 50a44 44 0 0 1 -56 -30a56 56 0 0 1 44 -68"/>' +
      '<g fill="#e23d3d"><path d="M540 600a18 18 0 0 1 36 0z"/></g><circle cx="558" cy="598" r="7" fill="#222"/><g fill="#222"><circle cx="548" cy="592" r="3"/><circle cx="566" cy="590" r="3"/></g>',
  },

  'goodnight-little-lantern': {
    sky: ['#261a4a', '#5b3f8c'],
    title: '#ffd27a',
    titleShadow: '#140c2e',
    band: '#1a1033',
    bandText: '#ffd27a',
    scene: () =>
      dots(40, 11, [10, 20, 590, 560], '#fff3d1', 1.2, 3) +
      star(520, 320, 16, '#ffe9a8') +
      star(80, 420, 12, '#ffe9a8') +
      '<path fill="#3a2d66" d="M0 640Q180 580 360 630T600 610V900H0Z"/>' +
      '<rect x="430" y="580" width="90" height="70" fill="#4b3b7a"/><path fill="#2c2150" d="M420 584L475 540L530 584Z"/>' +
      '<rect x="448" y="600" width="22" height="22" fill="#ffd27a"/><rect x="484" y="610" width="20" height="40" fill="#2c2150"/>' +
      '<path fill="#2a1f52" d="M0 700Q200 660 420 710T600 700V900H0Z"/>' +
      '<path fill="none" stroke="#1a1033" stroke-width="14" stroke-linecap="round" d="M600 330Q460 320 300 340"/>' +
      '<path fill="none" stroke="#1a1033" stroke-width="5" d="M300 340V392"/>' +
      '<circle cx="300" cy="500" r="150" fill="#ffcf70" opacity=".14"/><circle cx="300" cy="500" r="100" fill="#ffcf70" opacity=".22"/>' +
      '<circle cx="300" cy="398" r="14" fill="none" stroke="#1f5f5b" stroke-width="6"/>' +
      '<path fill="#1f5f5b" d="M256 432L274 408H326L344 432Z"/>' +
      '<rect x="254" y="430" width="92" height="130" rx="18" fill="#ffd27a"/>' +
      '<path d="M284 432V558M316 432V558" stroke="#f2a541" stroke-width="6"/>' +
      '<path fill="#ff8c42" d="M300 462Q324 498 300 528Q276 498 300 462Z"/><path fill="#fff3c4" d="M300 486Q310 504 300 520Q290 504 300 486Z"/>' +
      '<path fill="#1f5f5b" d="M250 556H350L338 580H262Z"/>' +
      dots(12, 5, [60, 560, 560, 780], '#fff08a', 2.5, 4.5),
  },

  'the-paper-boat-parade': {
    sky: ['#fff4cf', '#ffe2a0'],
    title: '#c8374d',
    titleShadow: '#ffffff',
    band: '#2b4c7e',
    bandText: '#fff4cf',
    scene: () =>
      '<path fill="none" stroke="#6b4e3d" stroke-width="3" d="M0 300Q300 360 600 300"/>' +
      ['#e76f51', '#2a9d8f', '#f2a541', '#8e6bbf', '#e76f51', '#2a9d8f', '#f2a541', '#8e6bbf']
        .map((c, i) => {
          const x = 40 + i * 72;
          const y = 300 + 60 * (1 - Math.pow((x - 300) / 300, 2)) * 0.98;
          return `<path fill="${c}" d="M${x - 18} ${r1(y - 4)}H${x + 18}L${x} ${r1(y + 34)}Z"/>`;
        })
        .join('') +
      '<g><rect x="0" y="420" width="120" height="150" fill="#e9a27a"/><path fill="#b5543d" d="M-10 424L60 370L130 424Z"/>' +
      '<rect x="130" y="400" width="110" height="170" fill="#7fb7be"/><path fill="#3e7c85" d="M120 404L185 350L250 404Z"/>' +
      '<rect x="250" y="430" width="100" height="140" fill="#f3c969"/><path fill="#c9913a" d="M240 434L300 384L360 434Z"/>' +
      '<rect x="360" y="410" width="120" height="160" fill="#c6a8e0"/><path fill="#8e6bbf" d="M350 414L420 360L490 414Z"/>' +
      '<rect x="490" y="430" width="110" height="140" fill="#e98a8a"/><path fill="#b55454" d="M480 434L545 382L610 434Z"/></g>' +
      '<g fill="#fff8ec">' +
      [
        [30, 460],
        [70, 460],
        [160, 440],
        [200, 490],
        [275, 470],
        [385, 450],
        [435, 500],
        [515, 470],
        [560, 470],
      ]
        .map(([x, y]) => `<rect x="${x}" y="${y}" width="24" height="30" rx="3"/>`)
        .join('') +
      '</g>' +
      '<rect x="0" y="560" width="600" height="240" fill="#5fa8d3"/>' +
      '<g fill="none" stroke="#cde9f7" stroke-width="4" stroke-linecap="round"><path d="M40 610h40M200 640h50M420 600h40M500 660h50M90 720h40M300 760h60"/></g>' +
      [
        [140, 680, 1.1, '#ffffff'],
        [330, 620, 0.8, '#ffd166'],
        [460, 720, 1.2, '#ef476f'],
        [250, 760, 0.7, '#06d6a0'],
      ]
        .map(([x, y, s, c]) => {
          const X = x as number;
          const Y = y as number;
          const S = s as number;
          return (
            `<path fill="${c}" stroke="#2b4c7e" stroke-width="2" d="M${r1(X - 70 * S)} ${Y}H${r1(X + 70 * S)}L${r1(X + 46 * S)} ${r1(Y + 30 * S)}H${r1(X - 46 * S)}Z"/>` +
            `<path fill="${c}" stroke="#2b4c7e" stroke-width="2" d="M${r1(X - 36 * S)} ${Y}L${X} ${r1(Y - 62 * S)}L${r1(X + 36 * S)} ${Y}Z"/>`
          );
        })
        .join('') +
      '<path d="M460 646V620" stroke="#2b4c7e" stroke-width="3"/><path fill="#f2a541" d="M460 620h24l-6 7l6 7h-24z"/>',
  },

  'bramble-bears-busy-winter': {
    sky: ['#8fc3e6', '#e2f2fb'],
    title: '#b23a48',
    titleShadow: '#ffffff',
    band: '#b23a48',
    bandText: '#ffffff',
    scene: () =>
      pine(70, 600, 200, '#2f6b4f') +
      pine(540, 590, 230, '#2f6b4f') +
      pine(140, 620, 140, '#3d8160') +
      pine(470, 620, 150, '#3d8160') +
      '<path fill="#ffffff" d="M0 600Q150 560 300 590T600 580V900H0Z"/><path fill="#eaf3f8" d="M0 700Q250 660 600 700V900H0Z"/>' +
      '<ellipse cx="300" cy="640" rx="110" ry="110" fill="#7b4b2a"/>' +
      '<ellipse cx="300" cy="670" rx="66" ry="70" fill="#c08a5b"/>' +
      '<g fill="#7b4b2a"><circle cx="246" cy="440" r="26"/><circle cx="354" cy="440" r="26"/></g><g fill="#c08a5b"><circle cx="246" cy="440" r="13"/><circle cx="354" cy="440" r="13"/></g>' +
      '<circle cx="300" cy="500" r="76" fill="#7b4b2a"/>' +
      '<ellipse cx="300" cy="526" rx="36" ry="28" fill="#c08a5b"/><ellipse cx="300" cy="512" rx="12" ry="9" fill="#2b1b12"/>' +
      '<path d="M300 520v12M288 538q12 8 24 0" stroke="#2b1b12" stroke-width="3" fill="none" stroke-linecap="round"/>' +
      '<g fill="#2b1b12"><circle cx="272" cy="484" r="7"/><circle cx="328" cy="484" r="7"/></g>' +
      '<path fill="#d64545" d="M226 566Q300 600 374 566L380 590Q300 626 220 590Z"/><path fill="#d64545" d="M330 596L350 680L376 672L356 594Z"/>' +
      '<g stroke="#fff" stroke-width="6"><path d="M344 620l18-4M350 646l18-4"/></g>' +
      '<path stroke="#8a6240" stroke-width="10" stroke-linecap="round" d="M430 480L400 720"/><path fill="#9aa7b4" d="M372 716h56l-8 52h-40z"/>' +
      '<g fill="#7b4b2a"><circle cx="420" cy="560" r="24"/><ellipse cx="250" cy="748" rx="36" ry="20"/><ellipse cx="350" cy="748" rx="36" ry="20"/></g>' +
      dots(46, 17, [10, 20, 590, 780], '#ffffff', 2.5, 5.5),
  },

  'whistle-and-the-cloud-factory': {
    sky: ['#ffbfae', '#ffeede'],
    title: '#1f5f5b',
    titleShadow: '#ffffff',
    band: '#1f5f5b',
    bandText: '#ffeede',
    scene: () =>
      cloud(150, 330, 1.1, '#ffffff') +
      cloud(260, 300, 0.7, '#ffffff') +
      cloud(510, 380, 0.9, '#ffffff') +
      '<path fill="#9ad1a8" d="M0 650Q200 610 400 650T600 640V900H0Z"/>' +
      '<rect x="140" y="520" width="40" height="120" fill="#54507f"/><rect x="210" y="470" width="44" height="170" fill="#54507f"/>' +
      '<g fill="#f2a541"><rect x="134" y="520" width="52" height="14"/><rect x="204" y="470" width="56" height="14"/></g>' +
      '<path fill="#6d6a9c" d="M100 740V600L180 560V600L260 560V600L340 560V600L420 560V740Z"/>' +
      '<g fill="#ffe9a8"><rect x="130" y="630" width="44" height="36" rx="4"/><rect x="210" y="630" width="44" height="36" rx="4"/><rect x="290" y="630" width="44" height="36" rx="4"/></g>' +
      '<rect x="356" y="660" width="44" height="80" rx="6" fill="#3e3b66"/>' +
      '<circle cx="470" cy="640" r="34" fill="none" stroke="#f2a541" stroke-width="14" stroke-dasharray="10 7"/><circle cx="470" cy="640" r="20" fill="#f2a541"/><circle cx="470" cy="640" r="8" fill="#6d6a9c"/>' +
      '<circle cx="525" cy="700" r="22" fill="none" stroke="#e76f51" stroke-width="10" stroke-dasharray="7 6"/><circle cx="525" cy="700" r="12" fill="#e76f51"/>' +
      '<g fill="#ffffff"><circle cx="160" cy="480" r="26"/><circle cx="176" cy="446" r="32"/><circle cx="214" cy="410" r="30"/><circle cx="232" cy="434" r="34"/><circle cx="260" cy="396" r="24"/></g>' +
      '<path fill="#3a86ff" d="M400 460Q420 420 460 430Q500 440 494 478Q470 500 430 492Q404 486 400 460Z"/>' +
      '<path fill="#1f5fc9" d="M430 458Q440 420 470 412Q462 450 446 470Z"/>' +
      '<path fill="#f2a541" d="M492 452L518 460L494 470Z"/><circle cx="476" cy="450" r="5" fill="#1b1b2f"/><circle cx="477" cy="448" r="1.6" fill="#fff"/>' +
      '<path fill="#3a86ff" d="M402 464L372 452L382 478Z"/>' +
      '<g fill="none" stroke="#1f5f5b" stroke-width="3" stroke-linecap="round"><path d="M520 420q10-8 4-18"/><path d="M536 430q14-6 12-20"/></g>',
  },

  'the-big-book-of-small-creatures': {
    sky: ['#e4f5cf', '#b7df95'],
    title: '#1e4d2b',
    titleShadow: '#f6ffe9',
    band: '#1e4d2b',
    bandText: '#e4f5cf',
    scene: (id) =>
      `<defs><clipPath id="${id}-bee"><ellipse cx="450" cy="380" rx="40" ry="28"/></clipPath></defs>` +
      '<path fill="#5fa845" d="M40 800Q0 560 250 440Q300 640 40 800Z"/><path d="M48 790Q140 600 246 452" stroke="#3f7f2c" stroke-width="5" fill="none"/>' +
      '<path fill="#7cc35b" d="M600 470Q420 500 380 700Q520 700 600 560Z"/><path d="M596 486Q470 560 392 690" stroke="#4f9a3c" stroke-width="5" fill="none"/>' +
      '<path fill="#8a5a3c" d="M0 760Q300 720 600 760V900H0Z"/>' +
      '<path fill="#e23d3d" d="M150 620a42 42 0 0 1 84 0z"/><path d="M192 578V620" stroke="#222" stroke-width="3"/><path fill="#222" d="M170 624a22 14 0 0 1 44 0z"/>' +
      '<circle cx="192" cy="574" r="14" fill="#222"/><g fill="#222"><circle cx="172" cy="600" r="6"/><circle cx="210" cy="598" r="6"/><circle cx="182" cy="612" r="4"/><circle cx="204" cy="614" r="4"/></g>' +
      `<ellipse cx="450" cy="380" rx="40" ry="28" fill="#ffd23f"/><g clip-path="url(#${id}-bee)" fill="#2b2b2b"><rect x="430" y="340" width="12" height="80"/><rect x="456" y="340" width="12" height="80"/></g>` +
      '<g fill="#e9f7ff" opacity=".85"><ellipse cx="436" cy="346" rx="14" ry="22" transform="rotate(-20 436 346)"/><ellipse cx="458" cy="344" rx="12" ry="20" transform="rotate(15 458 344)"/></g>' +
      '<circle cx="490" cy="378" r="4" fill="#2b2b2b"/><path d="M410 382l-10 4" stroke="#2b2b2b" stroke-width="3"/>' +
      '<path fill="none" stroke="#1e4d2b" stroke-width="3" stroke-dasharray="4 8" stroke-linecap="round" d="M410 396Q330 440 370 480"/>' +
      [0, 1, 2, 3, 4]
        .map((i) => `<circle cx="${300 + i * 30}" cy="${730 - (i % 2) * 12}" r="18" fill="${i % 2 ? '#9bd35a' : '#7cc35b'}"/>`)
        .join('') +
      '<circle cx="452" cy="712" r="22" fill="#9bd35a"/><circle cx="460" cy="706" r="4" fill="#222"/><path d="M446 692l-6-16M458 692l4-16" stroke="#222" stroke-width="3"/>' +
      '<circle cx="360" cy="560" r="54" fill="#fff" fill-opacity=".35" stroke="#6b4e3d" stroke-width="12"/><path d="M398 600l50 50" stroke="#6b4e3d" stroke-width="18" stroke-linecap="round"/>' +
      '<g fill="#2b2b2b"><ellipse cx="352" cy="566" rx="16" ry="11"/><circle cx="370" cy="562" r="6"/></g><path d="M340 560l-6-8M344 576l-8 6M360 576l0 9" stroke="#2b2b2b" stroke-width="2"/>',
  },

  'lantern-tales-boxed-set': {
    sky: ['#1f5f5b', '#2f847c'],
    title: '#fff8ec',
    titleShadow: '#123d3a',
    band: '#123d3a',
    bandText: '#f2a541',
    scene: () =>
      dots(26, 29, [20, 30, 580, 760], '#fff8ec', 1.2, 2.8) +
      [
        ['#f2a541', 150, 60],
        ['#e76f51', 212, 46],
        ['#8e6bbf', 260, 64],
        ['#fff8ec', 326, 44],
        ['#5fa8d3', 372, 56],
        ['#ffd166', 430, 40],
      ]
        .map(([c, x, w], i) => {
          const top = 420 + ((i * 37) % 50);
          return `<rect x="${x}" y="${top}" width="${w}" height="${600 - top}" rx="4" fill="${c}"/><rect x="${x}" y="${top + 22}" width="${w}" height="8" fill="#000" fill-opacity=".18"/>`;
        })
        .join('') +
      '<path fill="#c85a3f" d="M120 560H480L500 580H100Z"/>' +
      '<rect x="100" y="580" width="400" height="190" rx="10" fill="#e76f51"/>' +
      '<rect x="140" y="612" width="320" height="126" rx="10" fill="#fff8ec"/>' +
      `<text x="300" y="666" text-anchor="middle" font-family="${ROUNDED}" font-weight="700" font-size="30" fill="#1f5f5b">6 bedtime</text>` +
      `<text x="300" y="708" text-anchor="middle" font-family="${ROUNDED}" font-weight="700" font-size="30" fill="#1f5f5b">stories</text>` +
      '<circle cx="490" cy="400" r="56" fill="#f2a541"/><circle cx="490" cy="400" r="46" fill="none" stroke="#fff8ec" stroke-width="3" stroke-dasharray="6 5"/>' +
      `<text x="490" y="394" text-anchor="middle" font-family="${ROUNDED}" font-weight="700" font-size="19" fill="#123d3a">BOXED</text>` +
      `<text x="490" y="418" text-anchor="middle" font-family="${ROUNDED}" font-weight="700" font-size="19" fill="#123d3a">SET</text>` +
      '<circle cx="110" cy="380" r="60" fill="#ffd27a" opacity=".2"/><circle cx="110" cy="348" r="9" fill="none" stroke="#fff8ec" stroke-width="4"/>' +
      '<path fill="#fff8ec" d="M90 372L98 358H122L130 372Z"/><rect x="88" y="370" width="44" height="56" rx="9" fill="#ffd27a"/>' +
      '<path fill="#ff8c42" d="M110 382Q122 398 110 414Q98 398 110 382Z"/><path fill="#fff8ec" d="M86 424H134L128 436H92Z"/>',
  },

  'juniper-and-the-midnight-fox': {
    sky: ['#0f2447', '#2a4f86'],
    title: '#fff8ec',
    titleShadow: '#08142b',
    band: '#08142b',
    bandText: '#ffd9a8',
    scene: (id) =>
      dots(30, 41, [10, 20, 590, 520], '#ffffff', 1.2, 2.6) +
      `<defs><mask id="${id}-moon"><circle cx="470" cy="340" r="52" fill="#fff"/><circle cx="494" cy="326" r="46" fill="#000"/></mask></defs>` +
      `<circle cx="470" cy="340" r="52" fill="#fff3c4" mask="url(#${id}-moon)"/>` +
      pine(40, 600, 190, '#0d2f3f') +
      pine(560, 590, 220, '#0d2f3f') +
      pine(500, 610, 150, '#163f52') +
      '<path fill="#dbe8f5" d="M0 610Q200 570 360 610T600 600V900H0Z"/>' +
      '<rect x="70" y="470" width="150" height="170" fill="#6b3f5e"/><path fill="#3f2340" d="M56 476L145 400L234 476Z"/>' +
      '<rect x="112" y="510" width="66" height="70" rx="6" fill="#ffd27a"/><path d="M145 510v70M112 545h66" stroke="#e8b85a" stroke-width="3"/>' +
      '<circle cx="145" cy="550" r="14" fill="#4a2c2a"/><path fill="#4a2c2a" d="M123 580q22-32 44 0z"/>' +
      '<path fill="#eef5fb" d="M0 690Q260 650 600 700V900H0Z"/>' +
      '<path fill="#e8742a" d="M440 744Q530 750 556 690Q572 646 540 626Q552 672 512 700Q480 716 440 710Z"/>' +
      '<path fill="#fff8ec" d="M540 626Q572 640 562 676Q552 650 534 640Z"/>' +
      '<path fill="#e8742a" d="M362 744Q350 650 410 616Q470 650 458 744Z"/>' +
      '<path fill="#fff8ec" d="M388 744Q392 664 410 644Q428 664 432 744Z"/>' +
      '<g fill="#c65a1c"><ellipse cx="384" cy="744" rx="20" ry="9"/><ellipse cx="436" cy="744" rx="20" ry="9"/></g>' +
      '<path fill="#e8742a" d="M376 610L388 548L410 580L432 548L444 610Q410 650 376 610Z"/>' +
      '<path fill="#fff8ec" d="M386 614Q410 644 434 614Q424 632 410 640Q396 632 386 614Z"/><circle cx="410" cy="636" r="5" fill="#1b1b2f"/>' +
      '<g fill="#1b1b2f"><circle cx="396" cy="600" r="4"/><circle cx="424" cy="600" r="4"/></g>' +
      dots(20, 43, [10, 380, 590, 780], '#ffffff', 2, 3.5),
  },

  'counting-stars-with-grandpa-ade': {
    sky: ['#121a4a', '#ef8a6e'],
    title: '#ffd166',
    titleShadow: '#0b0f2e',
    band: '#2a2440',
    bandText: '#ffd166',
    scene: () =>
      dots(24, 53, [10, 20, 590, 420], '#fff3d1', 1, 2.4) +
      [
        [90, 340, 14],
        [170, 420, 10],
        [250, 330, 12],
        [330, 410, 16],
        [420, 320, 11],
        [500, 400, 14],
        [560, 310, 9],
        [60, 460, 9],
        [450, 470, 10],
        [230, 480, 9],
      ]
        .map(([x, y, r]) => star(x as number, y as number, r as number, '#ffd166'))
        .join('') +
      '<path fill="#3d3560" d="M0 560H60V500H120V540H170V480H230V560H600V520H540V470H470V530H420V500H370V560Z"/>' +
      '<g fill="#ffd166" opacity=".8"><rect x="76" y="516" width="10" height="12"/><rect x="188" y="500" width="10" height="12"/><rect x="488" y="490" width="10" height="12"/><rect x="556" y="536" width="10" height="12"/></g>' +
      '<rect x="0" y="680" width="600" height="120" fill="#4a3f6b"/><rect x="0" y="664" width="600" height="20" fill="#5d5283"/>' +
      '<rect x="150" y="600" width="120" height="76" rx="36" fill="#2f8f6e"/><circle cx="210" cy="570" r="34" fill="#6b4226"/>' +
      '<path fill="#1f5f5b" d="M174 560Q210 518 246 560Z"/><rect x="170" y="556" width="80" height="8" rx="4" fill="#1f5f5b"/>' +
      '<path d="M256 620L320 520" stroke="#2f8f6e" stroke-width="22" stroke-linecap="round"/><circle cx="322" cy="514" r="12" fill="#6b4226"/>' +
      '<rect x="300" y="620" width="78" height="56" rx="26" fill="#f2a541"/><circle cx="340" cy="596" r="26" fill="#6b4226"/>' +
      '<g fill="#1b1230"><circle cx="326" cy="576" r="10"/><circle cx="340" cy="570" r="10"/><circle cx="354" cy="576" r="10"/></g>' +
      '<g stroke="#c9c3e0" stroke-width="5" stroke-linecap="round"><path d="M480 664L500 600L520 664M500 600V664"/></g>' +
      '<path fill="#c9c3e0" d="M468 606L536 576L544 592L476 622Z"/><rect x="534" y="572" width="16" height="26" rx="4" fill="#9d96c0"/>',
  },

  'the-dragon-who-collected-buttons': {
    sky: ['#b4e6d4', '#eaf8f2'],
    title: '#5b2a86',
    titleShadow: '#ffffff',
    band: '#5b2a86',
    bandText: '#eaf8f2',
    scene: () =>
      '<path fill="#8fd1b3" d="M0 700Q300 660 600 700V900H0Z"/>' +
      '<path fill="#4caf7a" d="M170 680Q60 700 70 620Q76 580 110 590Q100 640 180 640Z"/><path fill="#f2a541" d="M70 620L50 600L80 596Z"/>' +
      '<path fill="#8e6bbf" d="M220 520Q160 420 190 380Q240 430 270 420Q250 480 260 520Z"/>' +
      '<ellipse cx="290" cy="620" rx="140" ry="115" fill="#4caf7a"/>' +
      '<ellipse cx="310" cy="650" rx="80" ry="80" fill="#c4e8a6"/><g stroke="#9fcf82" stroke-width="4"><path d="M250 620h120M244 660h132M256 700h108"/></g>' +
      '<g fill="#f2a541"><path d="M170 560L172 526L198 548Z"/><path d="M196 520L206 488L226 516Z"/><path d="M236 500L254 472L266 504Z"/></g>' +
      '<circle cx="390" cy="470" r="70" fill="#4caf7a"/><ellipse cx="444" cy="500" rx="50" ry="36" fill="#5fc28b"/>' +
      '<g fill="#2f7a52"><circle cx="466" cy="490" r="5"/><circle cx="480" cy="500" r="5"/></g>' +
      '<path fill="#fff8ec" d="M350 392L356 356L374 386Z"/><path fill="#fff8ec" d="M400 392L416 358L424 394Z"/>' +
      '<circle cx="400" cy="456" r="16" fill="#fff"/><circle cx="404" cy="458" r="8" fill="#1b1b2f"/><circle cx="406" cy="455" r="2.5" fill="#fff"/>' +
      '<path d="M430 524q20 12 44 0" fill="none" stroke="#2f7a52" stroke-width="4" stroke-linecap="round"/>' +
      '<ellipse cx="360" cy="490" rx="14" ry="8" fill="#f29c9c" opacity=".7"/>' +
      '<g fill="#4caf7a"><ellipse cx="220" cy="736" rx="44" ry="20"/><ellipse cx="360" cy="736" rx="44" ry="20"/></g>' +
      '<path fill="#4caf7a" d="M400 600Q450 590 460 630L440 640Q430 616 396 630Z"/>' +
      button(466, 640, 20, '#e63946') +
      [
        [80, 360, 18, '#f2a541'],
        [140, 460, 14, '#e76f51'],
        [520, 380, 22, '#3a86ff'],
        [540, 530, 16, '#ffbe0b'],
        [90, 520, 12, '#8e6bbf'],
        [460, 730, 18, '#ff6f91'],
        [520, 760, 14, '#2a9d8f'],
        [120, 760, 16, '#3a86ff'],
        [560, 690, 12, '#e76f51'],
        [290, 770, 12, '#f2a541'],
      ]
        .map(([x, y, r, c]) => button(x as number, y as number, r as number, c as string))
        .join(''),
  },

  'sailing-to-teacup-island': {
    sky: ['#8fd3ef', '#e6f7fd'],
    title: '#14365a',
    titleShadow: '#ffffff',
    band: '#14365a',
    bandText: '#e6f7fd',
    scene: () =>
      '<circle cx="520" cy="330" r="44" fill="#ffd23f"/>' +
      cloud(120, 340, 0.8, '#ffffff') +
      '<rect x="0" y="560" width="600" height="240" fill="#2f8fc0"/>' +
      '<g fill="none" stroke="#bfe6f7" stroke-width="4" stroke-linecap="round"><path d="M30 600q15-10 30 0t30 0"/><path d="M250 620q15-10 30 0t30 0"/><path d="M60 720q15-10 30 0t30 0"/><path d="M520 740q15-10 30 0t30 0"/></g>' +
      '<ellipse cx="400" cy="586" rx="150" ry="22" fill="#f4f1ea"/><ellipse cx="400" cy="580" rx="118" ry="12" fill="#dcd6c8"/>' +
      '<path fill="#fdfbf6" d="M290 470H510Q506 560 440 578H360Q294 560 290 470Z"/>' +
      '<path fill="none" stroke="#fdfbf6" stroke-width="16" d="M506 490Q556 490 548 528Q540 556 490 552"/>' +
      '<path fill="none" stroke="#e76f51" stroke-width="8" d="M294 500H506"/><g fill="#5fa8d3"><circle cx="340" cy="530" r="9"/><circle cx="400" cy="540" r="9"/><circle cx="460" cy="530" r="9"/></g>' +
      '<ellipse cx="400" cy="472" rx="110" ry="16" fill="#8cc152"/><path fill="#f1d9a6" d="M330 472Q400 440 470 472Z"/>' +
      '<path d="M410 470Q404 420 420 380" stroke="#8a5a3c" stroke-width="10" fill="none" stroke-linecap="round"/>' +
      '<g fill="#3c9d4a"><path d="M420 380Q380 360 350 380Q386 374 420 384Z"/><path d="M420 380Q460 350 490 370Q456 370 420 386Z"/><path d="M420 380Q410 340 430 320Q426 352 424 384Z"/><path d="M420 380Q450 390 462 420Q440 398 418 386Z"/></g>' +
      '<path d="M170 560V420" stroke="#8a5a3c" stroke-width="5"/><path fill="#fff8ec" d="M174 424L250 548H174Z"/><path fill="#e76f51" d="M166 430L110 548H166Z"/>' +
      '<path fill="#ffffff" stroke="#14365a" stroke-width="3" d="M80 600Q80 560 100 560H250Q268 560 268 600Q260 650 170 650Q88 650 80 600Z"/>' +
      '<g fill="#f2a541"><circle cx="110" cy="662" r="8"/><circle cx="238" cy="662" r="8"/></g>' +
      '<circle cx="140" cy="548" r="14" fill="#8a5a3c"/><circle cx="196" cy="552" r="11" fill="#c98b5e"/><path fill="#3b2a20" d="M126 544q14-20 28 0z"/>' +
      '<g fill="none" stroke="#14365a" stroke-width="3" stroke-linecap="round"><path d="M300 360q10-10 20 0q10-10 20 0"/><path d="M250 300q8-8 16 0q8-8 16 0"/></g>',
  },

  'olive-owl-says-good-morning': {
    sky: ['#fff2a6', '#ffab7a'],
    title: '#6b3e26',
    titleShadow: '#fff8dc',
    band: '#6b3e26',
    bandText: '#fff2a6',
    scene: () =>
      '<g stroke="#ffe27a" stroke-width="12" stroke-linecap="round">' +
      [0, 1, 2, 3, 4, 5, 6]
        .map((i) => {
          const a = Math.PI + (i * Math.PI) / 6;
          return `<path d="M${r1(300 + 150 * Math.cos(a))} ${r1(600 + 150 * Math.sin(a))}L${r1(300 + 200 * Math.cos(a))} ${r1(600 + 200 * Math.sin(a))}"/>`;
        })
        .join('') +
      '</g><circle cx="300" cy="600" r="124" fill="#fff7c2"/>' +
      '<path fill="#8fbf5a" d="M0 620Q160 570 320 620T600 600V900H0Z"/><path fill="#6da34a" d="M0 700Q250 660 600 710V900H0Z"/>' +
      '<path fill="#7a4a2a" d="M0 560Q200 540 420 570L420 588Q200 566 0 590Z"/>' +
      '<g fill="#5e9c3a"><circle cx="40" cy="546" r="26"/><circle cx="80" cy="536" r="20"/><circle cx="420" cy="566" r="18"/><circle cx="440" cy="556" r="14"/></g>' +
      '<path fill="#8a9a3b" d="M220 400L236 350L262 380Q270 376 278 376Q286 376 294 380L320 350L336 400Q356 440 350 500Q340 560 278 566Q216 560 206 500Q200 440 220 400Z"/>' +
      '<ellipse cx="278" cy="500" rx="50" ry="56" fill="#eadfa6"/>' +
      '<g fill="none" stroke="#b7aa6a" stroke-width="3"><path d="M250 490q8 8 16 0q8 8 16 0q8 8 16 0"/><path d="M258 516q8 8 16 0q8 8 16 0"/></g>' +
      '<path fill="#6e7b2c" d="M212 450Q190 500 220 540Q226 490 212 450ZM344 450Q366 500 336 540Q330 490 344 450Z"/>' +
      '<circle cx="254" cy="430" r="26" fill="#fff"/><circle cx="302" cy="430" r="26" fill="#fff"/>' +
      '<circle cx="258" cy="432" r="12" fill="#2b1b12"/><circle cx="298" cy="432" r="12" fill="#2b1b12"/><circle cx="262" cy="428" r="4" fill="#fff"/><circle cx="302" cy="428" r="4" fill="#fff"/>' +
      '<path fill="#f2a541" d="M268 452H288L278 470Z"/>' +
      '<g fill="#f2a541"><path d="M252 562h14v16h-14z"/><path d="M290 562h14v16h-14z"/></g>' +
      '<path fill="#e76f51" d="M470 420Q490 400 514 414Q524 430 506 440Q484 446 470 420Z"/><path fill="#f2a541" d="M514 416l12 4l-12 6z"/><circle cx="504" cy="420" r="3" fill="#2b1b12"/>' +
      '<path fill="#3a86ff" d="M110 360Q128 342 150 354Q158 368 142 376Q122 380 110 360Z"/><path fill="#f2a541" d="M150 356l10 4l-10 6z"/><circle cx="142" cy="360" r="3" fill="#2b1b12"/>' +
      '<g fill="none" stroke="#6b3e26" stroke-width="3" stroke-linecap="round"><path d="M530 396q6-10 0-20"/><path d="M164 340q8-6 6-18"/></g>',
  },

  'the-hedgehog-who-wanted-snow': {
    sky: ['#2f4a7a', '#9db8de'],
    title: '#ffffff',
    titleShadow: '#1d2f52',
    band: '#1d2f52',
    bandText: '#e3eefc',
    scene: () =>
      dots(46, 13, [20, 250, 580, 760], '#ffffff', 2, 5) +
      '<path fill="#e8f0fb" d="M0 600Q160 540 320 590T600 570V900H0Z"/>' +
      pine(70, 610, 150, '#2f6b5a') +
      pine(520, 600, 180, '#2f6b5a') +
      pine(560, 640, 120, '#3f7f6a') +
      '<g fill="#ffffff"><path d="M40 560l30-60 30 60Z"/><path d="M490 540l30-70 30 70Z"/></g>' +
      '<path fill="#ffffff" d="M0 680Q200 630 400 680T600 670V900H0Z"/>' +
      `<polygon fill="#7a5236" points="${spikyArc(300, 720, 108, 88, 11, 0.2)}"/>` +
      '<ellipse cx="300" cy="726" rx="96" ry="30" fill="#c99a6b"/>' +
      '<path fill="#dcb68c" d="M370 676Q430 680 456 716Q430 746 370 744Z"/>' +
      '<circle cx="458" cy="714" r="9" fill="#2b1b12"/><circle cx="404" cy="690" r="7" fill="#2b1b12"/><circle cx="406" cy="687" r="2.5" fill="#fff"/>' +
      '<ellipse cx="398" cy="722" rx="10" ry="6" fill="#f29c9c" opacity=".7"/>' +
      '<path fill="none" stroke="#2b1b12" stroke-width="3" stroke-linecap="round" d="M420 726q10 6 20 0"/>' +
      '<g fill="#5a3a24"><ellipse cx="240" cy="752" rx="18" ry="9"/><ellipse cx="356" cy="752" rx="18" ry="9"/></g>' +
      '<path fill="#c0392b" d="M330 640q36-22 70 0q-6 14-35 14q-29 0-35-14Z"/><circle cx="364" cy="624" r="10" fill="#e74c3c"/>' +
      '<g fill="#ffffff"><circle cx="430" cy="600" r="7"/><circle cx="470" cy="640" r="5"/><circle cx="220" cy="600" r="6"/></g>' +
      star(300, 560, 16, '#ffffff', 5),
  },

  'the-library-at-the-bottom-of-the-sea': {
    sky: ['#0f5e7c', '#063047'],
    title: '#ffe9a8',
    titleShadow: '#042233',
    band: '#042233',
    bandText: '#bfeaf5',
    scene: () =>
      dots(26, 31, [30, 300, 570, 700], '#9fe0f0', 3, 8) +
      '<g fill="#0b4a63" opacity=".6"><path d="M0 300L120 900H0Z"/><path d="M600 300L470 900H600Z"/></g>' +
      '<path fill="#d9b779" d="M0 730Q150 700 300 725T600 715V900H0Z"/>' +
      '<rect x="110" y="470" width="190" height="260" rx="10" fill="#7a4a2a"/>' +
      '<g fill="#5c3620"><rect x="122" y="540" width="166" height="8"/><rect x="122" y="620" width="166" height="8"/></g>' +
      '<g><rect x="128" y="488" width="18" height="52" fill="#e8584b"/><rect x="150" y="494" width="16" height="46" fill="#f2c14e"/><rect x="170" y="484" width="20" height="56" fill="#5bb5a2"/><rect x="194" y="492" width="14" height="48" fill="#9c7ad6"/><rect x="212" y="488" width="22" height="52" fill="#4a90d9"/>' +
      '<rect x="128" y="568" width="20" height="52" fill="#5bb5a2"/><rect x="152" y="574" width="16" height="46" fill="#e8584b"/><rect x="172" y="566" width="18" height="54" fill="#f2c14e"/><rect x="236" y="572" width="24" height="48" fill="#9c7ad6"/>' +
      '<rect x="132" y="648" width="22" height="52" fill="#4a90d9"/><rect x="158" y="654" width="18" height="46" fill="#f2c14e"/><rect x="200" y="646" width="16" height="54" fill="#e8584b"/></g>' +
      '<g fill="#b05aa0"><ellipse cx="420" cy="560" rx="70" ry="64"/>' +
      '<path d="M360 600q-40 60-10 110q10-40 30-70Z"/><path d="M390 614q-20 70 10 110q0-50 16-90Z"/><path d="M430 618q10 70 50 96q-20-44-24-96Z"/><path d="M460 600q50 40 60 100q-34-30-60-64Z"/></g>' +
      '<circle cx="398" cy="552" r="13" fill="#fff"/><circle cx="444" cy="552" r="13" fill="#fff"/><circle cx="401" cy="555" r="6" fill="#1c1030"/><circle cx="447" cy="555" r="6" fill="#1c1030"/>' +
      '<path fill="none" stroke="#1c1030" stroke-width="3" stroke-linecap="round" d="M408 584q14 10 28 0"/>' +
      '<g><rect x="300" y="640" width="46" height="34" rx="3" fill="#f2c14e" transform="rotate(-12 323 657)"/><path d="M323 642v30" stroke="#b8902a" stroke-width="2" transform="rotate(-12 323 657)"/></g>' +
      '<circle cx="500" cy="360" r="34" fill="#f5c542"/><circle cx="500" cy="360" r="22" fill="#bfe9f7" stroke="#8a6d1f" stroke-width="4"/>' +
      '<path fill="#f5c542" d="M478 390h44v40h-44Z"/>' +
      '<g fill="none" stroke="#bfeaf5" stroke-width="3"><circle cx="520" cy="310" r="6"/><circle cx="530" cy="280" r="9"/><circle cx="514" cy="250" r="5"/></g>' +
      '<g fill="#f28a5c"><path d="M70 420q20-16 40 0q-20 16-40 0Zm40 0l14-10v20Z"/><path d="M470 470q16-12 32 0q-16 12-32 0Zm32 0l12-8v16Z"/></g>' +
      '<g stroke="#3f9b6b" stroke-width="8" fill="none" stroke-linecap="round"><path d="M40 780q-14-40 6-80q20-40 0-80"/><path d="M560 780q14-40-6-80q-20-40 0-80"/></g>',
  },
};

// ---------- the frame: sky, title, author band ----------

/** Greedy word wrap, then pick the largest font size that fits in three lines across the cover. */
function layoutTitle(title: string): { lines: string[]; size: number } {
  // Prefer two lines at a generous size; fall back to three lines, then smaller type.
  const attempts: Array<[number, number]> = [
    [64, 2],
    [58, 2],
    [64, 3],
    [58, 3],
    [52, 3],
    [47, 3],
    [42, 3],
    [38, 3],
  ];
  for (const [size, maxLines] of attempts) {
    const maxChars = Math.floor(530 / (size * 0.56));
    const lines: string[] = [];
    let line = '';
    for (const word of title.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (next.length > maxChars && line) {
        lines.push(line);
        line = word;
      } else {
        line = next;
      }
    }
    if (line) lines.push(line);
    if (lines.length <= maxLines && lines.every((l) => l.length <= maxChars)) return { lines, size };
  }
  throw new Error(`Title too long for a cover: ${title}`);
}

function slugOf(book: SeedBook): string {
  const match = /^\/covers\/([a-z0-9-]+)\.svg$/.exec(book.image_url);
  if (!match?.[1]) throw new Error(`Unexpected image_url: ${book.image_url}`);
  return match[1];
}

function renderCover(book: SeedBook): string {
  const slug = slugOf(book);
  const d = designs[slug];
  if (!d) throw new Error(`No cover design for ${slug}`);
  const id = slug.replace(/[^a-z0-9]/g, '').slice(0, 12);
  const { lines, size } = layoutTitle(book.title);
  const lineHeight = Math.round(size * 1.12);
  const top = 90 + size * 0.8 + (3 - lines.length) * lineHeight * 0.5;
  const titleText = (fill: string, dx: number): string =>
    `<text x="${300 + dx}" y="${r1(top + dx)}" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="${size}" fill="${fill}">` +
    lines.map((l, i) => `<tspan x="${300 + dx}"${i ? ` dy="${lineHeight}"` : ''}>${escapeXml(l)}</tspan>`).join('') +
    '</text>';
  const authorSize = book.author.length > 22 ? 26 : 30;

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 900" width="600" height="900" role="img">` +
    `<title>${escapeXml(`Cover of ${book.title} by ${book.author}`)}</title>\n` +
    `<defs><linearGradient id="${id}-sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${d.sky[0]}"/><stop offset="1" stop-color="${d.sky[1]}"/></linearGradient></defs>\n` +
    `<rect width="600" height="900" fill="url(#${id}-sky)"/>\n` +
    d.scene(id) +
    '\n' +
    (d.titleShadow ? titleText(d.titleShadow, 3) : '') +
    titleText(d.title, 0) +
    '\n' +
    `<rect y="790" width="600" height="110" fill="${d.band}"/>` +
    `<text x="300" y="842" text-anchor="middle" font-family="${ROUNDED}" font-weight="700" font-size="${authorSize}" fill="${d.bandText}">${escapeXml(book.author)}</text>` +
    `<text x="300" y="876" text-anchor="middle" font-family="${ROUNDED}" font-size="15" letter-spacing="3" fill="${d.bandText}" opacity=".75">LITTLE LANTERN BOOKS</text>` +
    '</svg>\n'
  );
}

function main(): void {
  const outDir = path.join(process.cwd(), 'public', 'covers');
  mkdirSync(outDir, { recursive: true });
  // The covers do not depend on the day: any day lists every seed book.
  for (const book of seedBooks('2026-01-01')) {
    const svg = renderCover(book);
    const file = path.join(outDir, `${slugOf(book)}.svg`);
    writeFileSync(file, svg);
    console.log(`${path.relative(process.cwd(), file)}  ${(Buffer.byteLength(svg) / 1024).toFixed(1)} KB`);
  }
}

main();
