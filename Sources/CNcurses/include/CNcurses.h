#ifndef CNCURSES_H
#define CNCURSES_H
// A thin C layer over ncursesw: its macros (attributes, COLOR_PAIR, key codes) do not import
// into Swift, and signal handling belongs in C. Swift sees only these functions and constants.

#include <stdint.h>

/// Cell attributes (bit set) for cn_put.
enum {
    CN_ATTR_BOLD = 1,
    CN_ATTR_REVERSE = 2,
    CN_ATTR_UNDERLINE = 4,
    CN_ATTR_DIM = 8,
};

/// What cn_read_key returned.
enum {
    CN_KEY_NONE = 0,      ///< no key waiting
    CN_KEY_CHARACTER = 1, ///< *code is a Unicode scalar (control characters included)
    CN_KEY_FUNCTION = 2,  ///< *code is one of CN_FN_*
};

/// Function keys.
enum {
    CN_FN_UP = 1, CN_FN_DOWN, CN_FN_LEFT, CN_FN_RIGHT, CN_FN_PAGE_UP, CN_FN_PAGE_DOWN,
    CN_FN_HOME, CN_FN_END, CN_FN_BACKSPACE, CN_FN_DELETE, CN_FN_ENTER, CN_FN_BACK_TAB,
    CN_FN_RESIZE, CN_FN_UNKNOWN,
};

/// Sets the locale from the environment, takes over the terminal (newterm on stdin/stdout,
/// raw, no echo, keypad, non-blocking reads, hidden cursor, colors if any) and installs
/// handlers that restore it on a crash. Returns 0, or -1 when there is no usable terminal.
int cn_start(void);
/// Restores the terminal (endwin). Safe to call more than once and when not started.
void cn_stop(void);
int cn_columns(void);
int cn_rows(void);
/// Whether the terminal can show colors.
int cn_has_colors(void);
/// Draws one cell: a grapheme given as `count` Unicode scalars (a base character and its
/// combining marks), attributes, and colors 0-7 or -1 for the terminal default.
void cn_put(int y, int x, const uint32_t *scalars, int count, int attributes, int foreground, int background);
/// Shows the cursor at (y, x), or hides it when `visible` is 0.
void cn_set_cursor(int visible, int y, int x);
/// Sends the drawn cells to the terminal (only the changes).
void cn_refresh(void);
/// Reads one key without blocking.
int cn_read_key(uint32_t *code);
/// SIGINT, SIGTERM and SIGHUP record the signal and write a byte to `wake_fd`, so a poll()
/// on that descriptor wakes; the run loop then restores the terminal and stops. SIGWINCH
/// also writes to `wake_fd` (see cn_take_resize).
void cn_install_signal_handlers(int wake_fd);
/// Whether the terminal was resized (SIGWINCH) since the last call; if so, ncurses has been told
/// the new size (cn_columns/cn_rows return it).
int cn_take_resize(void);
/// The last terminating signal received, or 0.
int cn_pending_signal(void);

#endif
