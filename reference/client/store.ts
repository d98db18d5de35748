// The default conversation store (SPEC.md client.store.default): one per client, in memory.
import type { ConversationStore, Message } from "./types.ts";

export function createMemoryStore(): ConversationStore {
  const transcripts = new Map<string, Message[]>();
  return {
    // Copies in and out, so a caller mutating what it got cannot rewrite the stored history.
    get: (id) => (transcripts.has(id) ? structuredClone(transcripts.get(id)) : undefined),
    save: (id, messages) => {
      transcripts.set(id, structuredClone(messages));
    },
  };
}
