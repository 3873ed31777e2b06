import { stderr, stdin } from 'node:process';

/**
 * The password for an operator command, never from argv (argv shows in `ps` and shell history).
 * On a terminal it is typed without echo; otherwise it is the first line of standard input, so
 * scripts pipe it in (`printf '%s\n' "$PW" | npm run create-admin -- a@b.c`).
 */
export async function readPassword(prompt: string): Promise<string> {
  return stdin.isTTY ? readHidden(prompt) : readFirstLine();
}

async function readFirstLine(): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  stdin.destroy();
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** Reads a line in raw mode, echoing nothing; Ctrl-C aborts. */
function readHidden(prompt: string): Promise<string> {
  stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (fn: () => void) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      fn();
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(typed));
        if (ch === '\u0003') return done(() => reject(new Error('cancelled')));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
