// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import path from 'node:path';
import { featureImports } from './lint/feature-imports.js';
import { noImportCycle } from './lint/no-import-cycle.js';
import { FEATURE_DEPENDENCIES } from './src/features/dependencies.js';

export default defineConfig(
  {
    ignores: ['dist/', 'dist-server/', 'coverage/', 'test-results/', 'var/', 'public/', 'node_modules/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Every linted file is in tsconfig.json, so the rules see the same types as `npm run typecheck`.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {
      'import-x': importX,
      // The shop's own import rules (lint/): loops and feature folders.
      shop: { rules: { 'no-import-cycle': noImportCycle, 'feature-imports': featureImports } },
    },
    settings: {
      // The imports name their .ts files, so Node's own resolution finds them; the import rules
      // read those files with the TypeScript parser.
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        // Express 5 awaits a handler's promise and passes its rejection to the error handler,
        // so an async handler where Express expects a void callback is the design, not a slip.
        { checksVoidReturn: { arguments: false } },
      ],
      // A leading underscore marks a parameter a signature needs but the body does not (Express's
      // four-argument error handler, an interface's argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A module that needs itself to load cannot be read or tested in parts. import-x/no-cycle
      // skips type-only imports, so the shop's own rule, which counts them, takes its place.
      'shop/no-import-cycle': 'error',
      'shop/feature-imports': [
        'error',
        { featuresDir: path.join(import.meta.dirname, 'src/features'), dependencies: FEATURE_DEPENDENCIES },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          // Zones are read from this file's folder, not from wherever eslint was started.
          basePath: import.meta.dirname,
          zones: [
            {
              target: './src/web',
              from: './src/features',
              message: 'src/web/ is plumbing that knows no shop rules: pass what it needs in from app.ts instead.',
            },
            {
              target: './src/models',
              from: ['./src/features', './src/web'],
              message: 'src/models/ is the layer features build on: a rule two features share belongs here, not the other way round.',
            },
            {
              target: './src/lib',
              from: ['./src/features', './src/web', './src/models'],
              message: 'src/lib/ holds helpers that know nothing of the shop: pass what they need as arguments.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // supertest's res.body and the drivers' evaluate results are typed any on purpose: the
      // test's assertions are what check their shape, so reading them is not unsafe.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // A stub standing in for an async interface is async without having anything to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // These files share one load of the shop's modules per worker (vitest.config.ts), so a
    // module replaced here would stay replaced for the files after it: count with vi.spyOn.
    files: ['test/**'],
    ignores: ['test/islands/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'vi', property: 'mock', message: 'Files outside test/islands share modules: spy with vi.spyOn and restore it.' },
        { object: 'vi', property: 'doMock', message: 'Files outside test/islands share modules: spy with vi.spyOn and restore it.' },
      ],
    },
  },
);
