/**
 * What the bench service process ran, kept off the JS heap: one (monitor index, region index, slot second,
 * lateness ms) record of four int32s per check in fixed 64 Ki-record chunks. Strings per check (the first
 * version) grew the measured process by ~25 MiB over 15 minutes, which is the benchmark's memory, not Tocsin's.
 */
const RECORD = 4;
const CHUNK_RECORDS = 65_536;

export class RunLog {
  private readonly monitorIndex = new Map<string, number>();
  private readonly monitorIds: string[] = [];
  private readonly regionIndex = new Map<string, number>();
  private readonly regions: string[] = [];
  private readonly chunks: Int32Array[] = [];
  private length = 0;

  add(monitorId: string, region: string, dueAt: number, latenessMs: number | null): void {
    const at = this.length % CHUNK_RECORDS;
    if (at === 0) this.chunks.push(new Int32Array(CHUNK_RECORDS * RECORD));
    const chunk = this.chunks[this.chunks.length - 1]!;
    const o = at * RECORD;
    chunk[o] = this.indexOf(this.monitorIndex, this.monitorIds, monitorId);
    chunk[o + 1] = this.indexOf(this.regionIndex, this.regions, region);
    chunk[o + 2] = Math.floor(dueAt / 1000);
    chunk[o + 3] = latenessMs === null ? -1 : Math.max(0, Math.round(latenessMs));
    this.length++;
  }

  /** Run keys `monitor|region|slotSecond` and the in-window lateness samples; called after the measured window. */
  export(): { keys: string[]; lateness: number[] } {
    const keys: string[] = [];
    const lateness: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const chunk = this.chunks[Math.floor(i / CHUNK_RECORDS)]!;
      const o = (i % CHUNK_RECORDS) * RECORD;
      keys.push(`${this.monitorIds[chunk[o]!]}|${this.regions[chunk[o + 1]!]}|${chunk[o + 2]}`);
      if (chunk[o + 3]! >= 0) lateness.push(chunk[o + 3]!);
    }
    return { keys, lateness };
  }

  private indexOf(index: Map<string, number>, names: string[], name: string): number {
    let i = index.get(name);
    if (i === undefined) {
      i = names.length;
      names.push(name);
      index.set(name, i);
    }
    return i;
  }
}
