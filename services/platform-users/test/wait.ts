// Polls a condition until it holds, for tests of things that happen in the background.
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
