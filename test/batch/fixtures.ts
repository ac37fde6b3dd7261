/** Rows files for the batch tests: the certificate CSV (BOM, CRLF, quoted commas and quotes, a dotted header, TRUE/false, empty cells). */
function quote(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function certificateId(i: number): string {
  return `C-${String(i).padStart(4, '0')}`;
}

export function certificateCsv(rows: number): string {
  const lines = ['certificate_id,recipient,course,date,instructor.name,with_honors,hours'];
  for (let i = 1; i <= rows; i++) {
    lines.push([certificateId(i), `Person ${i}, Jr.`, `Course "${i % 7}"`, '2026-11-02', `Dr. Teacher ${i}`, i % 2 ? 'TRUE' : 'false', i % 3 ? String(i % 40) : ''].map(quote).join(','));
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
