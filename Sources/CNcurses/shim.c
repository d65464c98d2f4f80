#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include "CNcurses.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>

static SCREEN *cn_screen = NULL;
static volatile sig_atomic_t cn_active = 0;
static volatile sig_atomic_t cn_signal = 0;
static volatile sig_atomic_t cn_resized = 0;
static int cn_wake_fd = -1;
static int cn_colors = 0;
/// Color pair numbers by (foreground + 1, background + 1); 0 = not allocated yet.
static short cn_pairs[9][9];
static short cn_next_pair = 1;

/// A crash (SIGSEGV, SIGABRT, a Swift trap) must not leave the terminal in raw mode: restore it,
/// then let the default action run.
static void cn_crash_handler(int signal_number) {
    if (cn_active) {
        endwin();
        cn_active = 0;
    }
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void cn_terminate_handler(int signal_number) {
    cn_signal = signal_number;
    if (cn_wake_fd >= 0) {
        char byte = 's';
        ssize_t ignored = write(cn_wake_fd, &byte, 1);
        (void)ignored;
    }
}

/// SIGWINCH: note it and wake the poll(); cn_take_resize() applies the new size.
static void cn_resize_handler(int signal_number) {
    (void)signal_number;
    cn_resized = 1;
    if (cn_wake_fd >= 0) {
        char byte = 'w';
        ssize_t ignored = write(cn_wake_fd, &byte, 1);
        (void)ignored;
    }
}

static void cn_atexit(void) { cn_stop(); }

int cn_start(void) {
    setlocale(LC_ALL, "");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return -1;
    cn_screen = newterm(NULL, stdout, stdin);
    if (cn_screen == NULL) return -1;
    set_term(cn_screen);
    cn_active = 1;
    static int registered = 0;
    if (!registered) {
        atexit(cn_atexit);
        registered = 1;
    }
    int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) signal(crash_signals[i], cn_crash_handler);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    cn_colors = has_colors();
    if (cn_colors) {
        start_color();
        use_default_colors();
    }
    memset(cn_pairs, 0, sizeof cn_pairs);
    cn_next_pair = 1;
    return 0;
}

void cn_stop(void) {
    if (!cn_active) return;
    cn_active = 0;
    curs_set(1);
    endwin();
    if (cn_screen != NULL) {
        delscreen(cn_screen);
        cn_screen = NULL;
    }
}

int cn_columns(void) { return cn_active ? COLS : 0; }
int cn_rows(void) { return cn_active ? LINES : 0; }
int cn_has_colors(void) { return cn_colors; }

static short cn_pair(int foreground, int background) {
    if (!cn_colors || (foreground < 0 && background < 0)) return 0;
    if (foreground > 7) foreground = -1;
    if (background > 7) background = -1;
    short *slot = &cn_pairs[foreground + 1][background + 1];
    if (*slot == 0) {
        if (cn_next_pair >= COLOR_PAIRS) return 0;  // out of pairs: draw without color
        init_pair(cn_next_pair, (short)foreground, (short)background);
        *slot = cn_next_pair++;
    }
    return *slot;
}

void cn_put(int y, int x, const uint32_t *scalars, int count, int attributes, int foreground, int background) {
    if (!cn_active || count <= 0) return;
    attr_t attrs = A_NORMAL;
    if (attributes & CN_ATTR_BOLD) attrs |= A_BOLD;
    if (attributes & CN_ATTR_REVERSE) attrs |= A_REVERSE;
    if (attributes & CN_ATTR_UNDERLINE) attrs |= A_UNDERLINE;
    if (attributes & CN_ATTR_DIM) attrs |= A_DIM;
    short pair = cn_pair(foreground, background);
    wchar_t text[CCHARW_MAX + 1];
    int n = count < CCHARW_MAX ? count : CCHARW_MAX;
    for (int i = 0; i < n; i++) text[i] = (wchar_t)scalars[i];
    text[n] = 0;
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) != OK) {
        // Not a base + combining marks (an emoji ZWJ sequence): draw the base character, which
        // has the same width, so columns stay aligned.
        text[1] = 0;
        if (setcchar(&cell, text, attrs, pair, NULL) != OK) return;
    }
    mvadd_wch(y, x, &cell);  // ERR at the bottom-right corner is expected and harmless
}

void cn_set_cursor(int visible, int y, int x) {
    if (!cn_active) return;
    if (visible) {
        move(y, x);
        curs_set(1);
    } else {
        curs_set(0);
    }
}

void cn_refresh(void) {
    if (cn_active) refresh();
}

int cn_read_key(uint32_t *code) {
    if (!cn_active) return CN_KEY_NONE;
    wint_t key;
    int result = get_wch(&key);
    if (result == ERR) return CN_KEY_NONE;
    if (result == OK) {
        if (key == '\r' || key == '\n') {
            *code = CN_FN_ENTER;
            return CN_KEY_FUNCTION;
        }
        if (key == 127 || key == 8) {
            *code = CN_FN_BACKSPACE;
            return CN_KEY_FUNCTION;
        }
        *code = (uint32_t)key;
        return CN_KEY_CHARACTER;
    }
    switch (key) {
    case KEY_UP: *code = CN_FN_UP; break;
    case KEY_DOWN: *code = CN_FN_DOWN; break;
    case KEY_LEFT: *code = CN_FN_LEFT; break;
    case KEY_RIGHT: *code = CN_FN_RIGHT; break;
    case KEY_PPAGE: *code = CN_FN_PAGE_UP; break;
    case KEY_NPAGE: *code = CN_FN_PAGE_DOWN; break;
    case KEY_HOME: *code = CN_FN_HOME; break;
    case KEY_END: *code = CN_FN_END; break;
    case KEY_BACKSPACE: *code = CN_FN_BACKSPACE; break;
    case KEY_DC: *code = CN_FN_DELETE; break;
    case KEY_ENTER: *code = CN_FN_ENTER; break;
    case KEY_BTAB: *code = CN_FN_BACK_TAB; break;
    case KEY_RESIZE: *code = CN_FN_RESIZE; break;
    default: *code = CN_FN_UNKNOWN; break;
    }
    return CN_KEY_FUNCTION;
}

void cn_install_signal_handlers(int wake_fd) {
    cn_wake_fd = wake_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cn_terminate_handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    struct sigaction resize;
    memset(&resize, 0, sizeof resize);
    resize.sa_handler = cn_resize_handler;
    sigemptyset(&resize.sa_mask);
    sigaction(SIGWINCH, &resize, NULL);
}

int cn_take_resize(void) {
    if (!cn_resized || !cn_active) return 0;
    cn_resized = 0;
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
        resizeterm(size.ws_row, size.ws_col);
    }
    return 1;
}

int cn_pending_signal(void) { return cn_signal; }
