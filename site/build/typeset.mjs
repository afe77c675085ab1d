// Typesets TeX formulas as MathML for the site's build (site/build): one
// request per line of standard input, {"tex": "...", "display": bool}, one
// answer per line of standard output, {"mathml": "..."} or {"error":
// "..."}. The build starts it once and sends it every formula of every
// lesson, so Node starts once per build.
import { createInterface } from 'node:readline';
import temml from 'temml';

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  try {
    const { tex, display } = JSON.parse(line);
    answer = { mathml: temml.renderToString(tex, { displayMode: !!display, throwOnError: true }) };
  } catch (err) {
    answer = { error: String(err.message || err).replace(/^Temml parse error: /, '') };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
