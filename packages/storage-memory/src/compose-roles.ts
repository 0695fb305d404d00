/** The methods of `T`: what a role object serves, its fields left out. */
type Methods<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] };

/** `A | B` as `A & B`. */
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/**
 * One object serving the public methods of every part, each bound to its part: how the memory
 * backend makes one `Storage` of its role objects, with no method that only passes a call on.
 * A method name two parts share would hide one of them, so it throws.
 */
export function composeRoles<Parts extends readonly object[]>(...parts: Parts): Methods<Intersection<Parts[number]>> {
  const composed: Record<string, unknown> = {};
  for (const part of parts) {
    const own = new Set<string>();
    for (let proto: object | null = Object.getPrototypeOf(part); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method: unknown = Object.getOwnPropertyDescriptor(proto, name)?.value;
        // A subclass's override hides its parent's method of the same name.
        if (name === 'constructor' || typeof method !== 'function' || own.has(name)) continue;
        if (name in composed) throw new Error(`composeRoles: two parts serve ${name}`);
        own.add(name);
        composed[name] = method.bind(part);
      }
    }
  }
  return composed as Methods<Intersection<Parts[number]>>;
}
