/** An authoritative-looking DNS server over UDP on 127.0.0.1 answering from a fixed table (dns-packet). */
import { createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';

export interface DnsRecords {
  [name: string]: {
    A?: string[];
    AAAA?: string[];
    CNAME?: string[];
    NS?: string[];
    TXT?: string[];
    MX?: Array<{ preference: number; exchange: string }>;
  };
}

export interface DnsServer {
  port: number;
  /** `127.0.0.1:port`, usable as a probe's `resolver`. */
  resolver: string;
  queries(): number;
  /** Replace the table (e.g. to simulate a change). */
  setRecords(records: DnsRecords): void;
  /**
   * Answers the n-th A/AAAA query for `name` with `answers[n]` (the last one repeats): a name whose address
   * changes between two lookups, as in DNS rebinding. Overrides the table for that name and type.
   */
  answerInTurn(name: string, type: 'A' | 'AAAA', answers: string[][]): void;
  /** Stop answering (queries then time out). */
  setSilent(silent: boolean): void;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startDnsServer(initial: DnsRecords): Promise<DnsServer> {
  let records = normalise(initial);
  let silent = false;
  let count = 0;
  const turns = new Map<string, { answers: string[][]; asked: number }>();
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    count++;
    if (silent) return;
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    const entry = records[q.name.toLowerCase().replace(/\.$/, '')];
    const answers: dnsPacket.Answer[] = [];
    const turn = turns.get(`${q.type} ${q.name.toLowerCase().replace(/\.$/, '')}`);
    if (turn || entry) {
      const type = q.type as keyof DnsRecords[string];
      const values = turn
        ? (turn.answers[Math.min(turn.asked++, turn.answers.length - 1)] ?? [])
        : (entry?.[type] ?? []);
      for (const data of values) answers.push({ type, name: q.name, ttl: 60, class: 'IN', data } as dnsPacket.Answer);
    }
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | (entry || turn ? 0 : NXDOMAIN);
    const reply = dnsPacket.encode({ type: 'response', id: query.id, flags, questions: [q], answers });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    port,
    resolver: `127.0.0.1:${port}`,
    queries: () => count,
    setRecords: (r) => {
      records = normalise(r);
    },
    answerInTurn: (name, type, answers) => {
      turns.set(`${type} ${name.toLowerCase().replace(/\.$/, '')}`, { answers, asked: 0 });
    },
    setSilent: (s) => {
      silent = s;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function normalise(r: DnsRecords): DnsRecords {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase().replace(/\.$/, ''), v]));
}
