/**
 * Small typed readers for the .json template loader. Each takes the value and its JSON path
 * (`$.body[2].rows[0]`) and throws EngineError('invalid_template') naming that path when the value is wrong.
 */
import { EngineError } from '../errors.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function fail(path: string, message: string): never {
  throw new EngineError('invalid_template', `${path}: ${message}`);
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function object(value: unknown, path: string): JsonObject {
  if (!isObject(value)) fail(path, `expected an object, found ${describe(value)}.`);
  return value;
}

export function array(value: unknown, path: string): Json[] {
  if (!Array.isArray(value)) fail(path, `expected an array, found ${describe(value)}.`);
  return value;
}

export function string(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, `expected text, found ${describe(value)}.`);
  return value;
}

export function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, `expected true or false, found ${describe(value)}.`);
  return value;
}

export function number(value: unknown, path: string, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, `expected a number, found ${describe(value)}.`);
  if (value < min || value > max) fail(path, `expected a number from ${min} to ${max}, found ${value}.`);
  return value;
}

export function integer(value: unknown, path: string, min: number, max: number): number {
  const n = number(value, path, min, max);
  if (!Number.isInteger(n)) fail(path, `expected a whole number, found ${n}.`);
  return n;
}

export function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(path, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, found ${describe(value)}.`);
  }
  return value as T;
}

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** `#rgb` or `#rrggbb`, returned as lower-case `#rrggbb`. */
export function color(value: unknown, path: string): string {
  if (typeof value !== 'string' || !HEX.test(value)) fail(path, `expected a colour like "#1a2b3c", found ${describe(value)}.`);
  const hex = value.toLowerCase();
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
}

/** Refuses keys the format does not know (a typo such as "bolt" would otherwise be silently ignored). */
export function onlyKeys(obj: JsonObject, path: string, allowed: ReadonlySet<string>): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) fail(at(path, key), `unknown property "${key}".`);
  }
}
