import { readFileSync, statSync } from 'node:fs';

/**
 * The built frontend's `index.html`, read again whenever the file changes. A build while the
 * server runs replaces the hashed script names the shell loads and deletes the old files: a
 * shell read once at start would keep naming files that are gone, and every page would load
 * blank until a restart. One `stat` per shell request (page navigations only; assets are
 * served as files) costs microseconds.
 */
export function appShell(indexPath: string): () => string {
  let html = readFileSync(indexPath, 'utf8');
  let modified = statSync(indexPath).mtimeMs;
  return () => {
    try {
      const now = statSync(indexPath).mtimeMs;
      if (now !== modified) {
        html = readFileSync(indexPath, 'utf8');
        modified = now;
      }
    } catch {
      // Mid-build the file may be gone for a moment: the last shell read is the best answer.
    }
    return html;
  };
}
