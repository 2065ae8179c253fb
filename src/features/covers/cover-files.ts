import { pipeline } from 'node:stream/promises';
import express, { type RequestHandler } from 'express';
import { COVER_CACHE_CONTROL, COVER_CONTENT_TYPE, type BucketStore, type CoverStore } from './cover-store.ts';

// A stored cover's name carries a hash of its content (cover-images.ts), so its bytes never
// change: a year's immutable caching is safe, and a new cover arrives under a new name.
const STORED_NAME = /^\/[0-9a-f]{32}-\d{1,4}\.webp$/;

/**
 * The covers the shop stores, at COVERS_URL: finished files only, never a half-written one.
 * From the uploads folder as static files, or streamed from the bucket with the same headers;
 * a name that is not a stored cover's, or a file that is not there, is Page Not Found.
 */
export function uploadedFiles(store: CoverStore): RequestHandler {
  const files =
    store.kind === 'disk'
      ? express.static(store.dir, { immutable: true, maxAge: '1y', index: false, dotfiles: 'deny' })
      : fromBucket(store);
  return (req, res, next) => {
    if (STORED_NAME.test(req.path) && (req.method === 'GET' || req.method === 'HEAD')) files(req, res, next);
    else next();
  };
}

function fromBucket(store: BucketStore): RequestHandler {
  return async (req, res, next) => {
    try {
      const file = await store.read(req.path.slice(1));
      if (!file) return next();
      res.set({ 'Content-Type': COVER_CONTENT_TYPE, 'Cache-Control': COVER_CACHE_CONTROL });
      if (file.length !== undefined) res.set('Content-Length', String(file.length));
      if (req.method === 'HEAD') {
        file.body.destroy();
        return void res.end();
      }
      await pipeline(file.body, res);
    } catch (err) {
      // The bucket out of reach before anything was sent: answered as an outage (503) by the error handler.
      if (!res.headersSent) next(err);
      else res.destroy();
    }
  };
}
