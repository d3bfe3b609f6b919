/**
 * A small Prometheus registry written for our few metrics (text exposition format 0.0.4): counters and
 * histograms keep plain numbers, created up front or once per label value, so that recording on the
 * ingestion hot path is an addition, with no allocation; gauges are read when scraped.
 */

type Sample = { labels?: string; value: number; suffix?: string };
type Family = { name: string; help: string; type: 'counter' | 'gauge' | 'histogram'; samples(): Sample[] };

export type Counter = { inc(by?: number): void; value(): number };
export type LabelledCounter = { labels(value: string): Counter };
export type Histogram = { observe(labelValue: string, seconds: number): void };

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const formatNumber = (value: number) =>
  Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';

function counter(): Counter {
  let total = 0;
  return {
    inc(by = 1) {
      total += by;
    },
    value: () => total,
  };
}

export function createRegistry() {
  const families: Family[] = [];
  const add = (family: Family) => {
    if (families.some((existing) => existing.name === family.name)) throw new Error(`${family.name} twice`);
    families.push(family);
  };

  return {
    counter(name: string, help: string): Counter {
      const one = counter();
      add({ name, help, type: 'counter', samples: () => [{ value: one.value() }] });
      return one;
    },

    /** A counter per value of one label (e.g. the refusal's errorCode); each value's counter is kept. */
    labelledCounter(name: string, help: string, label: string): LabelledCounter {
      const byValue = new Map<string, Counter>();
      add({
        name,
        help,
        type: 'counter',
        samples: () =>
          [...byValue].map(([value, one]) => ({
            labels: `${label}="${escapeLabel(value)}"`,
            value: one.value(),
          })),
      });
      return {
        labels(value) {
          let one = byValue.get(value);
          if (!one) {
            one = counter();
            byValue.set(value, one);
          }
          return one;
        },
      };
    },

    /** A value read at scrape time (backlog bytes, memory). */
    gauge(name: string, help: string, read: () => number): void {
      add({ name, help, type: 'gauge', samples: () => [{ value: read() }] });
    },

    /** Durations in seconds per value of one label, in cumulative buckets (upper bounds in seconds). */
    histogram(name: string, help: string, label: string, buckets: readonly number[]): Histogram {
      const series = new Map<string, { counts: Float64Array; sum: number; count: number }>();
      add({
        name,
        help,
        type: 'histogram',
        samples: () =>
          [...series].flatMap(([value, { counts, sum, count }]): Sample[] => {
            const base = `${label}="${escapeLabel(value)}"`;
            return [
              ...buckets.map((bound, i) => ({
                labels: `${base},le="${formatNumber(bound)}"`,
                value: counts[i] as number,
              })),
              { labels: `${base},le="+Inf"`, value: count },
              { labels: base, value: sum, suffix: '_sum' },
              { labels: base, value: count, suffix: '_count' },
            ];
          }),
      });
      return {
        observe(value, seconds) {
          let one = series.get(value);
          if (!one) {
            one = { counts: new Float64Array(buckets.length), sum: 0, count: 0 };
            series.set(value, one);
          }
          const { counts } = one;
          for (let i = 0; i < buckets.length; i++)
            if (seconds <= (buckets[i] as number)) counts[i] = (counts[i] as number) + 1;
          one.sum += seconds;
          one.count++;
        },
      };
    },

    /** The text exposition format Prometheus scrapes. */
    render(): string {
      let text = '';
      for (const family of families) {
        text += `# HELP ${family.name} ${family.help}\n# TYPE ${family.name} ${family.type}\n`;
        for (const sample of family.samples()) {
          const suffix = sample.suffix ?? (family.type === 'histogram' ? '_bucket' : '');
          const labels = sample.labels ? `{${sample.labels}}` : '';
          text += `${family.name}${suffix}${labels} ${formatNumber(sample.value)}\n`;
        }
      }
      return text;
    },
  };
}

export type Registry = ReturnType<typeof createRegistry>;
