// Uploaded logs: read by the lab (in this tab by default; with
// ?engine=server, by the server), and kept in this browser's IndexedDB
// (never sent anywhere) so that a reload or a copied link in the same
// browser finds the dataset again.

import { request, errorOf, engineName } from './api.js';

/**
 * Where a log the page reads goes, in the engine this page uses:
 * {local, where, text} for the page to tell its user truthfully. With the
 * server engine the server says how long it keeps an upload (GET
 * /api/health).
 */
export async function whereLogsGo() {
  if (engineName !== 'server') {
    return { local: true, where: 'in this tab', text: "the lab's WebAssembly module reads it here, and nothing is sent anywhere." };
  }
  let kept = '';
  try {
    const r = await request('GET', '/api/health');
    const u = r.ok && r.json().uploads;
    if (u && u.keptFor) kept = `, keeps it for ${u.keptFor} after its last use, and shows it to ${u.visibleTo} alone`;
  } catch { /* said below without the server's terms */ }
  return { local: false, where: 'on the server', text: `this page uses the server engine (?engine=server), so the whole file is sent to this server, which reads it${kept}.` };
}

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
 * columns (a column map). Resolves to {ok, dataset, summary, note} (a
 * server's note when it let go of an older upload of this browser's) or
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
  const { dataset, summary, note } = r.json();
  // Tell the page's views (the report) which file the dataset came from.
  latest = { file, dataset, summary, format: q.get('format') };
  document.dispatchEvent(new CustomEvent('refresh-lab:log', { detail: latest }));
  try {
    await tx('readwrite', (s) => s.put({ id: dataset.id, name: q.get('name'), cycle: cycle || '', format: q.get('format'), merge: merge || '', sep: sep || '', columns: columns || '', blob: file, saved: Date.now() }));
  } catch {
    // Private windows may refuse storage: the upload still works now.
  }
  return { ok: true, dataset, summary, note };
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
