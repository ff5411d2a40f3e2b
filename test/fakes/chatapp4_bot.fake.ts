import { isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** Telegram Bot API fake: `POST /bot<token>/sendMessage`, `{ok, result}` / `{ok:false, error_code, description, parameters?}`. */
const tgError = (code: number, description: string, parameters?: Record<string, unknown>): FakeResponse => ({
  status: code,
  body: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) },
});

const FAILURES = {
  too_many_requests: tgError(429, 'Too Many Requests: retry after 5', { retry_after: 5 }),
  bot_blocked: tgError(403, 'Forbidden: bot was blocked by the user'),
  bot_kicked: tgError(403, 'Forbidden: bot was kicked from the group chat'),
  chat_not_found: tgError(400, 'Bad Request: chat not found'),
  unauthorized: tgError(401, 'Unauthorized'),
  bad_gateway: tgError(502, 'Bad Gateway'),
} satisfies Record<string, FakeResponse>;
export type Chatapp4BotFailure = keyof typeof FAILURES;

export interface Chatapp4BotFakeOptions {
  botToken?: string;
  /** Chats the bot can post to. */
  chats?: Array<string | number>;
}

export interface Chatapp4BotFake extends FakeServer<Chatapp4BotFailure> {
  botToken: string;
  /** Messages delivered: chat id (as string) and text. */
  sent: Array<{ chatId: string; text: string; messageId: number }>;
  /** From now on, posts to `from` answer with `migrate_to_chat_id: to` (group upgraded to a supergroup); `to` becomes valid. */
  migrateChat(from: string | number, to: string | number): void;
}

const ALLOWED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'blockquote',
  'span',
]);

/** A rough check of Telegram's HTML parse mode: only known tags, `&` only as an entity. */
function htmlProblem(text: string): string | null {
  const tagRe = /<\/?([a-z-]+)(\s[^<>]*)?>/gy;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') {
      tagRe.lastIndex = i;
      const m = tagRe.exec(text);
      if (!m || !ALLOWED_TAGS.has(m[1]))
        return `Bad Request: can't parse entities: Unsupported start tag at byte offset ${i}`;
      i = tagRe.lastIndex - 1;
    } else if (ch === '&') {
      if (!/^&(amp|lt|gt|quot|#\d+);/.test(text.slice(i)))
        return `Bad Request: can't parse entities: Unsupported entity at byte offset ${i}`;
    } else if (ch === '>') {
      // Telegram tolerates a bare '>' but we escape it anyway; accept.
    }
  }
  return null;
}

export async function startChatapp4BotFake(options: Chatapp4BotFakeOptions = {}): Promise<Chatapp4BotFake> {
  const botToken = options.botToken ?? '123456789:AAFakeTelegramBotTokenForTests_0123';
  const initialChats = (options.chats ?? ['-1001234567890', '42']).map(String);
  const chats = new Set(initialChats);
  const migrations = new Map<string, string>();
  const sent: Chatapp4BotFake['sent'] = [];
  const server = await startFakeHttp(FAILURES, (req) => {
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.path);
    if (!m) return tgError(404, 'Not Found');
    if (m[1] !== botToken) return FAILURES.unauthorized;
    if (m[2].toLowerCase() !== 'sendmessage') return tgError(404, 'Not Found: method not found');
    const body = req.json;
    if (!isObject(body)) return tgError(400, 'Bad Request: message text is empty');
    const chatId = typeof body.chat_id === 'string' || typeof body.chat_id === 'number' ? String(body.chat_id) : '';
    const migrated = migrations.get(chatId);
    if (migrated !== undefined) {
      return tgError(400, 'Bad Request: group chat was upgraded to a supergroup chat', {
        migrate_to_chat_id: Number(migrated),
      });
    }
    if (!chats.has(chatId)) return FAILURES.chat_not_found;
    const text = typeof body.text === 'string' ? body.text : '';
    if (text.trim() === '') return tgError(400, 'Bad Request: message text is empty');
    if (text.length > 4096) return tgError(400, 'Bad Request: message is too long');
    if (body.parse_mode === 'HTML') {
      const problem = htmlProblem(text);
      if (problem) return tgError(400, problem);
    }
    const messageId = sent.length + 1;
    sent.push({ chatId, text, messageId });
    return {
      status: 200,
      body: { ok: true, result: { message_id: messageId, date: 1767225600, chat: { id: Number(chatId) }, text } },
    };
  });
  const resetRequests = server.reset.bind(server);
  return Object.assign(server, {
    botToken,
    sent,
    /** Forgets requests, queued failures, sent messages (ids start at 1 again) and chat migrations. */
    reset() {
      resetRequests();
      sent.length = 0;
      migrations.clear();
      chats.clear();
      for (const c of initialChats) chats.add(c);
    },
    migrateChat(from: string | number, to: string | number) {
      migrations.set(String(from), String(to));
      chats.delete(String(from));
      chats.add(String(to));
    },
  });
}
