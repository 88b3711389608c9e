/* Files written the way databases write them (docs/CLI.md, "Files written"):
 * the bytes go to a new temporary name in the target's folder (O_CREAT|O_EXCL, mode 0644),
 * every write, the flush, fsync and close are checked, and only then does the file take its
 * name, by link(2), which never replaces anything. So a reader sees the whole file or none,
 * a failed write (ENOSPC, EFBIG under `ulimit -f`) leaves nothing behind, and a file already
 * at the name (a hand-edited regression, a user's file) is never lost. */
#ifndef RF_FILE_OUT_H
#define RF_FILE_OUT_H
#include <stddef.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct rf_file rf_file;

/* A different file already at the name: */
typedef enum {
  RF_FILE_REFUSE,     /* an error naming it (outputs the user named: encode OUT, study --out) */
  RF_FILE_NEW_NAME    /* the first free NAME-2.ext, NAME-3.ext, ... (regression files) */
} rf_file_clash;

/* Starts writing `path`: refuses at once a name longer than the system allows (never
 * truncated), a symlink or a non-regular file at the name (never followed), and a folder that
 * cannot take the temporary file. NULL with err ("PATH: why"). Ignores SIGXFSZ for the
 * process, so that a write past `ulimit -f` fails with EFBIG instead of killing it. */
rf_file *rf_file_open(const char *path, char *err, size_t errlen);
/* The stream to write to (checked by rf_file_commit: no need to test each fprintf). */
FILE *rf_file_stream(rf_file *f);
/* Flushes, checks, fsyncs and closes the file, then gives it its name (see rf_file_clash).
 * An existing file with the same bytes is left as it is (nothing to do). final (may be NULL)
 * gets the name the bytes are under. Frees f. 0 written, 1 an identical file was there
 * already, -1 with err (nothing left behind). */
int rf_file_commit(rf_file *f, rf_file_clash clash, char *final, size_t finallen, char *err,
                   size_t errlen);
/* Replaces the file at f's name, written whole, with f's bytes (redfuzz guard rewriting a
 * finding): flushes, checks, fsyncs and closes f, checks that the file there is still a
 * regular file holding exactly `old` (old_len bytes: what the caller read; a file edited
 * meanwhile is never lost), gives f the old file's permissions and renames it over, which
 * readers see as one step (the old file or the new one, never a part). Frees f. 0, or -1
 * with err (nothing changed). */
int rf_file_replace(rf_file *f, const void *old, size_t old_len, char *err, size_t errlen);
/* Drops the file being written (removes the temporary name); frees f. NULL is allowed. */
void rf_file_abort(rf_file *f);

#ifdef __cplusplus
}
#endif
#endif
