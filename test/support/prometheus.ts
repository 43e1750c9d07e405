/** One sample of the Prometheus text format: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed exposition: the samples, and each metric family's TYPE and HELP. */
export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
  help: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/y;

/**
 * Parses the Prometheus text format (0.0.4) strictly: a line that is not a comment, a blank or a
 * well-formed sample throws, as does a sample of a family with no TYPE line.
 */
export function parsePrometheus(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) {
      (comment[1] === 'TYPE' ? types : help).set(comment[2]!, comment[3]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`line ${i + 1} is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const at = LABEL.lastIndex;
      const l = LABEL.exec(body);
      if (!l || LABEL.lastIndex === at) throw new Error(`line ${i + 1} has bad labels: ${line}`);
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    // As Prometheus reads it (Go's ParseFloat): ±Inf, and NaN in any case.
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : /^nan$/i.test(m[3]!) ? NaN : Number(m[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(m[3]!)) throw new Error(`line ${i + 1} has a bad value: ${line}`);
    const family = familyOf(m[1]!, types);
    if (!types.has(family)) throw new Error(`line ${i + 1}: ${m[1]} has no TYPE line`);
    samples.push({ name: m[1]!, labels, value });
  }
  return { samples, types, help };
}

/** The family a sample belongs to: a histogram's _bucket/_sum/_count, a summary's, or itself. */
export function familyOf(name: string, types: Map<string, string>): string {
  for (const suffix of ['_bucket', '_sum', '_count', '_total', '_created']) {
    if (name.endsWith(suffix) && types.has(name.slice(0, -suffix.length))) return name.slice(0, -suffix.length);
  }
  return name;
}

/** The value of the one sample with this name whose labels include `labels`; undefined when none. */
export function valueOf(e: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
