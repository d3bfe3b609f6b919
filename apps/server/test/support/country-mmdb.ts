import { writeFileSync } from 'node:fs';

/**
 * Writes a small IPv4 country database in the MaxMind DB format with GeoLite2-Country's record layout
 * (`{ country: { iso_code } }`), the layout of the files operators point GEOIP_DB at. Written from the
 * MaxMind DB format specification (search tree of 24-bit records, data section, metadata map), so that
 * tests need no downloaded database.
 */
export function writeCountryMmdb(file: string, networks: Array<{ cidr: string; country: string }>): void {
  // The search tree: node 0 is the root; a record is a node index, `EMPTY` or a data pointer (set below).
  const EMPTY = -1;
  const nodes: Array<[number, number]> = [[EMPTY, EMPTY]];
  const leaves: Array<{ node: number; side: 0 | 1; country: string }> = [];
  for (const { cidr, country } of networks) {
    const [address = '', bits = '32'] = cidr.split('/');
    const value = address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
    let node = 0;
    for (let i = 0; i < Number(bits); i++) {
      const side = ((value >>> (31 - i)) & 1) as 0 | 1;
      const isLast = i === Number(bits) - 1;
      const current = nodes[node] as [number, number];
      if (isLast) leaves.push({ node, side, country });
      else {
        if (current[side] === EMPTY) {
          nodes.push([EMPTY, EMPTY]);
          current[side] = nodes.length - 1;
        }
        node = current[side];
      }
    }
  }
  const data: number[] = [];
  const nodeCount = nodes.length;
  const records = nodes.map(([left, right]) => [
    left === EMPTY ? nodeCount : left,
    right === EMPTY ? nodeCount : right,
  ]);
  for (const { node, side, country } of leaves) {
    const offset = data.length;
    data.push(...map([['country', map([['iso_code', utf8(country)]])]]));
    (records[node] as number[])[side] = nodeCount + 16 + offset;
  }
  const tree = records.flatMap(([left = 0, right = 0]) => [...uint24(left), ...uint24(right)]);
  const metadata = map([
    ['node_count', unsigned(6, nodeCount)],
    ['record_size', unsigned(5, 24)],
    ['ip_version', unsigned(5, 4)],
    ['database_type', utf8('GeoLite2-Country')],
    ['languages', [0x01, 0x04, ...utf8('en')]],
    ['binary_format_major_version', unsigned(5, 2)],
    ['binary_format_minor_version', unsigned(5, 0)],
    ['build_epoch', [0x04, 0x02, ...bigEndian(Math.floor(Date.UTC(2026, 0, 1) / 1000), 4)]],
    ['description', map([['en', utf8('Polyflow test countries')]])],
  ]);
  const marker = [0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com')];
  writeFileSync(file, Buffer.from([...tree, ...new Array(16).fill(0), ...data, ...marker, ...metadata]));
}

function bigEndian(value: number, length: number): number[] {
  return Array.from({ length }, (_, i) => Math.floor(value / 256 ** (length - 1 - i)) % 256);
}
const uint24 = (value: number) => bigEndian(value, 3);
/** Control byte: type in the top 3 bits, size in the low 5 (every size here is under 29). */
const utf8 = (text: string) => [(2 << 5) | text.length, ...Buffer.from(text)];
/** uint16 (type 5) or uint32 (type 6), in 4 bytes. */
const unsigned = (type: 5 | 6, value: number) => [(type << 5) | 4, ...bigEndian(value, 4)];
function map(entries: Array<[string, number[]]>): number[] {
  return [(7 << 5) | entries.length, ...entries.flatMap(([key, value]) => [...utf8(key), ...value])];
}
