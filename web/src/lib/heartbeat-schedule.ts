/** A heartbeat monitor's schedule in words ("every 5 minutes", "at 02:30 every day (Europe/Paris)"). */
export type HeartbeatSchedule = { every_seconds?: number; cron?: string; timezone?: string } | null | undefined;

const UNITS: [number, string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

export function everyInWords(seconds: number): string {
  const [size, unit] = UNITS.find(([s]) => seconds % s === 0) ?? [1, 'second'];
  const n = seconds / size;
  return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MACROS: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

const two = (n: string) => n.padStart(2, '0');
const isNum = (s: string | undefined): s is string => s !== undefined && /^\d{1,2}$/.test(s);

function cronInWords(expression: string): string {
  const fields = (MACROS[expression.trim().toLowerCase()] ?? expression).trim().split(/\s+/);
  const [minute, hour, day, month, weekday] = fields;
  if (fields.length === 5 && month === '*') {
    const step = /^\*\/(\d+)$/.exec(minute ?? '');
    if (step && hour === '*' && day === '*' && weekday === '*') return everyInWords(Number(step[1]) * 60);
    if (isNum(minute) && hour === '*' && day === '*' && weekday === '*') {
      return minute === '0' ? 'every hour' : `at minute ${minute} of every hour`;
    }
    if (isNum(minute) && isNum(hour)) {
      const at = `at ${two(hour)}:${two(minute)}`;
      if (day === '*' && weekday === '*') return `${at} every day`;
      if (day === '*' && isNum(weekday)) return `${at} every ${DAYS[Number(weekday)]}`;
      if (day === '*' && weekday === '1-5') return `${at} every weekday`;
      if (isNum(day) && weekday === '*') return `${at} on day ${day} of every month`;
    }
  }
  return `on cron "${expression}"`;
}

export function scheduleInWords(schedule: HeartbeatSchedule, intervalSeconds: number): string {
  if (schedule?.every_seconds) return everyInWords(schedule.every_seconds);
  if (schedule?.cron) return `${cronInWords(schedule.cron)} (${schedule.timezone ?? 'UTC'})`;
  return everyInWords(intervalSeconds);
}

/** Copy-paste snippets for a job that pings `url`. */
export function heartbeatSnippets(url: string): { title: string; text: string }[] {
  return [
    { title: 'curl, after the job', text: `curl -fsS -m 10 --retry 5 -o /dev/null ${url}` },
    {
      title: 'crontab: start, then success or failure',
      text:
        `0 3 * * * curl -fsS -m 10 -o /dev/null ${url}/start && ` +
        `/usr/local/bin/job.sh && curl -fsS -m 10 -o /dev/null ${url} || curl -fsS -m 10 -o /dev/null ${url}/fail`,
    },
    {
      title: 'systemd service',
      text: [
        '[Service]',
        'Type=oneshot',
        `ExecStartPre=-/usr/bin/curl -fsS -m 10 -o /dev/null ${url}/start`,
        'ExecStart=/usr/local/bin/job.sh',
        `ExecStopPost=/bin/sh -c '/usr/bin/curl -fsS -m 10 -o /dev/null ${url}/$EXIT_STATUS'`,
      ].join('\n'),
    },
  ];
}
