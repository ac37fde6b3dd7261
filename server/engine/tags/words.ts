/** A field name in words, for sample values and schema titles: `customer.first_name` → "Customer first name". */
export function nameInWords(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._\-\s]+/g, ' ')
    .trim()
    .toLowerCase();
  if (words === '') return 'Value';
  return words[0].toUpperCase() + words.slice(1);
}
