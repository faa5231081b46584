import type { AlertPublisher } from "./publisher.js";

/** Where alert outcomes are counted (/metrics' alert posts counter). */
export interface AlertPostCounter {
  inc(labels: { outcome: string }): void;
}

/** Counts alert posts and their failures for /metrics, around any publisher. */
export function countingPublisher(inner: AlertPublisher, posts: AlertPostCounter): AlertPublisher {
  const counted =
    <A extends unknown[], R>(outcome: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await fn(...args);
        posts.inc({ outcome });
        return result;
      } catch (error) {
        posts.inc({ outcome: "failed" });
        throw error;
      }
    };
  return {
    ...inner,
    post: counted("posted", inner.post.bind(inner)),
    markResolved: counted("resolved", inner.markResolved.bind(inner)),
    replyResolved: counted("thread_reply", inner.replyResolved.bind(inner)),
    // A class's methods are not own properties: `...inner` alone would drop the digest.
    ...(inner.postDigest ? { postDigest: inner.postDigest.bind(inner) } : {}),
    ...(inner.postPaused ? { postPaused: inner.postPaused.bind(inner) } : {}),
    ...(inner.postGroup ? { postGroup: counted("group_posted", inner.postGroup.bind(inner)) } : {}),
    ...(inner.updateGroup ? { updateGroup: counted("group_updated", inner.updateGroup.bind(inner)) } : {}),
    ...(inner.postInThread ? { postInThread: counted("posted", inner.postInThread.bind(inner)) } : {}),
  };
}
