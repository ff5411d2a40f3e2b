import { zoneChoices } from '../lib/time-zones';
import type { FieldIds } from './form';

/** A Field's select of IANA zones (UTC first); a zone the browser does not know, saved earlier, stays choosable. */
export function ZoneSelect({
  control,
  value,
  onChange,
}: {
  control: FieldIds['control'];
  value: string;
  onChange: (zone: string) => void;
}) {
  return (
    <select {...control} value={value} onChange={(e) => onChange(e.target.value)}>
      {zoneChoices(value).map((z) => (
        <option key={z}>{z}</option>
      ))}
    </select>
  );
}
