/** The part of fs-native-extensions this project uses: an advisory lock on an open file. */
declare module 'fs-native-extensions' {
  /** Takes an exclusive lock on the whole file without waiting; false when another holder has it. */
  export function tryLock(fd: number, opts?: { shared?: boolean }): boolean;
}
