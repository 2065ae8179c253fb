import express, { type RequestHandler } from 'express';

// A stored cover's name carries a hash of its content (cover-images.ts), so its bytes never
// change: a year's immutable caching is safe, and a new cover arrives under a new name.
const STORED_NAME = /^\/[0-9a-f]{32}-\d{1,4}\.webp$/;

/** The files of an uploads folder shared by every process: finished covers only, never a half-written one. */
export function uploadedFiles(dir: string): RequestHandler {
  const files = express.static(dir, { immutable: true, maxAge: '1y', index: false, dotfiles: 'deny' });
  return (req, res, next) => {
    if (STORED_NAME.test(req.path)) files(req, res, next);
    else next();
  };
}
