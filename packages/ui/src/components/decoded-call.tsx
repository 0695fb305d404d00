import type { DecodedParameter } from '../records.js';
import { AddressLink } from './links.js';

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** One decoded value: an address as a link, anything else as text. */
function Value({ parameter }: { parameter: DecodedParameter }) {
  return <span class="mono">{parameter.type === 'address' && ADDRESS.test(parameter.value) ? <AddressLink address={parameter.value} full /> : parameter.value}</span>;
}

/** A call written out, e.g. `transfer(to: 0x…, value: 1000)`, each argument with its type in its title. */
export function CallText({ name, parameters }: { name: string; parameters: DecodedParameter[] }) {
  return (
    <span class="call-text">
      <strong>{name}</strong>(
      {parameters.map((parameter, index) => (
        <span key={index} title={parameter.type}>
          {index > 0 && ', '}
          <span class="muted">{parameter.name}:</span> <Value parameter={parameter} />
        </span>
      ))}
      )
    </span>
  );
}

/** Decoded arguments as a table: name, type, value. */
export function ParametersTable({ parameters, caption }: { parameters: DecodedParameter[]; caption: string }) {
  return (
    <table class="compact">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {parameters.map((parameter, index) => (
          <tr key={index}>
            <td>{parameter.name}</td>
            <td class="muted">{parameter.type}</td>
            <td>
              <Value parameter={parameter} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
