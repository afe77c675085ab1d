// Uploaded logs: read by the lab in this tab, and kept in this
// browser's IndexedDB (never sent anywhere) so that a reload or a copied
// link in the same browser finds the dataset again.

import { request, errorOf } from './api.js';

const DB = 'refresh-lab';
const STORE = 'uploads';

function open() {
  return new Promise((resolve, reject) => {
    if (!('indexedDB' in self)) { reject(new Error('no IndexedDB')); return; }
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: 'id' });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function tx(mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const req = fn(t.objectStore(STORE));
    t.oncomplete = () => { db.close(); resolve(req && req.result); };
    t.onerror = () => { db.close(); reject(t.error); };
  });
}

// The log read last, for a view mounted after it was read (report.js).
let latest = null;

/**
 * The log the lab read last, as the "refresh-lab:log" event told it:
 * {file, dataset, summary, format}, or null.
 */
export function latestUpload() {
  return latest;
}

/**
 * Reads a log (a File or Blob, gzip-compressed or not) into the lab, with
 * the API's reading options: format, cycle, merge, sep (a CSV separator),
 * columns (a column map). Resolves to {ok, dataset, summary} or
 * {ok: false, error: {...}} with the line and column of a bad file and,
 * when the lab has them, a hint, a separator or format to try, and a
 * preview for a column map. onProgress(phase, done, total) reports
 * reading (and decompressing) and parsing. On success the document gets a
 * "refresh-lab:log" event whose detail is {file, dataset, summary, format}.
 */
export async function uploadLog(file, { name, cycle, format, merge, sep, columns, onProgress } = {}) {
  const q = new URLSearchParams({ format: format || 'crawl-log', name: name || file.name || 'crawl log' });
  if (cycle) q.set('cycle', cycle);
  if (merge) q.set('merge', merge);
  if (sep) q.set('sep', sep);
  if (columns) q.set('columns', columns);
  const r = await request('POST', '/api/datasets', { query: q.toString(), body: file, onProgress });
  if (!r.ok) return { ok: false, error: errorOf(r) };
  const { dataset, summary } = r.json();
  // Tell the page's views (the report) which file the dataset came from.
  latest = { file, dataset, summary, format: q.get('format') };
  document.dispatchEvent(new CustomEvent('refresh-lab:log', { detail: latest }));
  try {
    await tx('readwrite', (s) => s.put({ id: dataset.id, name: q.get('name'), cycle: cycle || '', format: q.get('format'), merge: merge || '', sep: sep || '', columns: columns || '', blob: file, saved: Date.now() }));
  } catch {
    // Private windows may refuse storage: the upload still works now.
  }
  return { ok: true, dataset, summary };
}

/** Reads a log saved by uploadLog into the lab again; true on success. */
export async function restoreUpload(id) {
  let rec;
  try {
    rec = await tx('readonly', (s) => s.get(id));
  } catch {
    return false;
  }
  if (!rec) return false;
  const r = await uploadLog(rec.blob, { name: rec.name, cycle: rec.cycle, format: rec.format, merge: rec.merge, sep: rec.sep, columns: rec.columns });
  return r.ok && r.dataset.id === id;
}
