/**
 * What JSON.parse hides in a JSON text that parsed cleanly (a request's body, an imported line or
 * cell): a key given twice in one object (the last one would win, silently) and an integer too
 * large to keep exactly (beyond 2^53, it would be rounded). Each would record a value the client
 * did not send. The first found, named by its path (`metadata.source`, `items[2]`; `(body)` for
 * the text itself), or null. One pass over the text; strings are skipped whole.
 *
 * @example
 * jsonTextProblem('{"consentGiven":true,"consentGiven":false}') // { field: 'consentGiven', message: 'is given more than once' }
 */
export function jsonTextProblem(text: string): { field: string; message: string } | null {
  type Frame = { keys: Set<string>; path: string; key: string } | { keys: null; path: string; index: number };
  const frames: Frame[] = [];
  const name = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path || '(body)');
  const valuePath = (): string => {
    const top = frames[frames.length - 1];
    if (!top) return '';
    if (top.keys) return top.path ? `${top.path}.${top.key}` : top.key;
    return `${top.path}[${top.index}]`;
  };
  let expectKey = false;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: find its closing quote (one not escaped by an odd run of backslashes).
      let end = i + 1;
      for (;;) {
        end = text.indexOf('"', end);
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end++;
      }
      const top = frames[frames.length - 1];
      if (expectKey && top?.keys) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.keys.has(key)) return { field: name(top.path ? `${top.path}.${key}` : key), message: 'is given more than once' };
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end + 1;
    } else if (c === 0x7b) {
      frames.push({ keys: new Set(), path: valuePath(), key: '' });
      expectKey = true;
      i++;
    } else if (c === 0x5b) {
      frames.push({ keys: null, path: valuePath(), index: 0 });
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      i++;
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let integer = true;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) integer = false;
        else if (d < 0x30 || d > 0x39) break;
      }
      // Up to 15 digits always fit; past that, the integer must be the one its double holds.
      if (integer && end - i > 15) {
        const token = text.slice(i, end);
        const value = Number(token);
        if (Number.isFinite(value) && BigInt(token) !== BigInt(value))
          return { field: name(valuePath()), message: 'is an integer too large to keep exactly (beyond 2^53): send it as a string' };
      }
      i = end;
    } else {
      i++;
    }
  }
  return null;
}
