import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The maps' bytes, as files under DATA_DIR/sourcemaps/<project>/ named by a random id (never by anything a
 * client sent); the accounts store holds which file is which release's map. Never served over HTTP.
 */
export function createMapFiles(root: string) {
  const full = (file: string) => path.join(root, file);
  return {
    /** Writes each map under a new name (temporary first, renamed once complete); answers the names. */
    async write(projectId: string, contents: readonly Buffer[]): Promise<string[]> {
      await mkdir(path.join(root, projectId), { recursive: true });
      const names: string[] = [];
      try {
        for (const content of contents) {
          const name = path.posix.join(projectId, `${randomUUID()}.map`);
          const temporary = `${full(name)}.part`;
          await writeFile(temporary, content, { mode: 0o600 });
          await rename(temporary, full(name));
          names.push(name);
        }
      } catch (error) {
        await this.remove(names);
        throw error;
      }
      return names;
    },

    read: (file: string): Promise<string> => readFile(full(file), 'utf8'),

    /** Bytes free for this process on the file system holding the maps (DATA_DIR's, unless mounted apart). */
    async freeBytes(): Promise<number> {
      await mkdir(root, { recursive: true });
      const stats = await statfs(root);
      return stats.bavail * stats.bsize;
    },

    /** Removes a deleted project's folder of maps (its id is a UUID the accounts store gave). */
    async removeProject(projectId: string): Promise<void> {
      if (!/^[0-9a-f-]{36}$/i.test(projectId)) return;
      await rm(path.join(root, projectId), { recursive: true, force: true });
    },

    /** Removes the files; one already gone is no error. */
    async remove(files: readonly string[]): Promise<void> {
      await Promise.all(files.map((file) => rm(full(file), { force: true })));
    },
  };
}

export type MapFiles = ReturnType<typeof createMapFiles>;
