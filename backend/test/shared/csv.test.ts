import { describe, expect, test } from 'vitest';
import { csvCell } from '../../src/shared/csv.ts';

describe('csvCell (the audit log and takings exports)', () => {
  test('quotes what RFC 4180 asks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  test('text a spreadsheet would run as a formula gets an apostrophe', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\t=cmd')).toBe("'\t=cmd");
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    // A minus and a digit first is still a formula when more follows (the takings export let these through).
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('-2+3+cmd|" /C calc"!A0')).toBe(`"'-2+3+cmd|"" /C calc""!A0"`);
    expect(csvCell('-1 Main St')).toBe("'-1 Main St");
  });

  test('numbers stay numbers', () => {
    expect(csvCell(3)).toBe('3');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('-30.00')).toBe('-30.00');
    expect(csvCell('108.25')).toBe('108.25');
    expect(csvCell('-1')).toBe('-1');
  });
});
