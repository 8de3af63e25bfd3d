/**
 * The end of every switch over an event or command union: the compiler proves no case is
 * left (a new member is a type error here), and a value that still arrives at run time
 * (e.g. an unknown type read from an old store) fails loudly instead of being ignored.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
