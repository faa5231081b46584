/**
 * What `work` gives, or `fallback` when it has not settled within `ms`. A rejection of `work`
 * before then passes through; one after is ignored (the answer is already given). The timer is
 * cleared either way, so it never holds the process open. `work` is not stopped: a caller that
 * must stop it aborts it itself.
 */
export async function withTimeout<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
