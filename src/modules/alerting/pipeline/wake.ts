/** A sleep that ends early when nudged (another stage of this process produced work). */
export class Wake {
  private pending: (() => void) | null = null;
  private nudged = false;

  nudge(): void {
    this.nudged = true;
    this.pending?.();
  }

  /** Resolves after `ms` or at the next nudge (at once if nudged since the last wait). */
  sleep(ms: number): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pending = null;
        this.nudged = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.pending = done;
    });
  }
}
