// The service worker: after a first visit it keeps the site and the lab's
// WebAssembly module in the browser's cache, so that a lesson reloads and
// runs when the network has gone (a classroom's Wi-Fi, say). Pages and
// scripts come from the network while there is one (a new build shows at
// once) and from the cache when there is not; the module, whose name
// carries its content's hash, comes from the cache first. The API
// (/api/…, a server's) is never cached.
const CACHE = 'refresh-lab-v1';

// What a lesson needs besides its own page and modules, which the page
// hands over (see api.js): the lab worker's scripts and, below, the module.
const CORE = ['js/lab-worker.js', 'js/wasm_exec.js', 'wasm.json', 'css/lab.css', 'favicon.svg'];

const base = new URL('./', self.location.href);

// A module whose name carries its content's hash: lab.0123456789ab.wasm.
const HASHED = /\.[0-9a-f]{12}\.wasm$/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const urls = CORE.map((u) => new URL(u, base).href);
    let module = 'lab.wasm'; // a build without a hashed name
    try {
      const r = await fetch(new URL('wasm.json', base), { cache: 'no-cache' });
      if (r.ok) module = (await r.json()).wasm;
    } catch { /* the plain name, then */ }
    urls.push(new URL(module, base).href);
    await Promise.all(urls.map((u) => cache.add(u).catch(() => {})));
    await prune(urls.at(-1));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

// A page hands over what it loaded before this worker controlled it.
self.addEventListener('message', (event) => {
  const urls = (event.data && event.data.cache) || [];
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(urls
    .filter((u) => sameSite(new URL(u)))
    .map((u) => cache.match(u).then((hit) => hit || cache.add(u)).catch(() => {})))));
});

function sameSite(url) {
  return url.origin === base.origin && url.pathname.startsWith(base.pathname) && !url.pathname.startsWith(`${base.pathname}api/`);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || !sameSite(url)) return;
  if (HASHED.test(url.pathname)) {
    event.respondWith(caches.match(req).then((hit) => hit || fetchAndKeep(req).then((res) => {
      if (res.ok) event.waitUntil(prune(req.url));
      return res;
    })));
    return;
  }
  event.respondWith(fetchAndKeep(req).catch(async () => {
    const hit = await caches.match(req, { ignoreSearch: true });
    if (hit) return hit;
    throw new Error(`offline, and ${url.pathname} is not in the cache`);
  }));
});

// prune drops the modules of other builds than keep's (8 MB each).
async function prune(keep) {
  const cache = await caches.open(CACHE);
  for (const req of await cache.keys()) {
    if (HASHED.test(new URL(req.url).pathname) && req.url !== keep) await cache.delete(req);
  }
}

async function fetchAndKeep(req) {
  const res = await fetch(req);
  if (res.ok && res.type === 'basic') {
    const cache = await caches.open(CACHE);
    cache.put(req, res.clone());
  }
  return res;
}
