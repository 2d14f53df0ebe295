#define _GNU_SOURCE
#include "CTerminal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_settings;
static struct termios raw_settings;
static volatile sig_atomic_t have_saved = 0;
static volatile sig_atomic_t is_raw = 0;
static int raw_fd = -1;
static int leave_fd = -1;
static char leave_sequence[64];
static size_t leave_length = 0;
static volatile sig_atomic_t resized = 0;
static int handlers_installed = 0;

int tactus_terminal_enter_raw(int input_fd) {
    if (!have_saved) {
        if (tcgetattr(input_fd, &saved_settings) != 0) return -1;
        have_saved = 1;
    }
    raw_settings = saved_settings;
    raw_settings.c_iflag &= ~(unsigned)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    raw_settings.c_lflag &= ~(unsigned)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    raw_settings.c_cflag &= ~(unsigned)(CSIZE | PARENB);
    raw_settings.c_cflag |= CS8;
    raw_settings.c_cc[VMIN] = 1;
    raw_settings.c_cc[VTIME] = 0;
    raw_fd = input_fd;
    if (tcsetattr(input_fd, TCSAFLUSH, &raw_settings) != 0) return -1;
    is_raw = 1;
    return 0;
}

void tactus_terminal_set_leave_sequence(int output_fd, const char *sequence) {
    size_t length = strlen(sequence);
    if (length >= sizeof leave_sequence) length = sizeof leave_sequence - 1;
    memcpy(leave_sequence, sequence, length);
    leave_sequence[length] = 0;
    leave_length = length;
    leave_fd = output_fd;
}

void tactus_terminal_restore(void) {
    int saved_errno = errno;
    if (leave_fd >= 0 && leave_length > 0) {
        size_t done = 0;
        while (done < leave_length) {
            ssize_t n = write(leave_fd, leave_sequence + done, leave_length - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += (size_t)n;
        }
        leave_fd = -1;
    }
    if (is_raw && have_saved) {
        tcsetattr(raw_fd, TCSAFLUSH, &saved_settings);
        is_raw = 0;
    }
    errno = saved_errno;
}

static const int fatal_signals[] = { SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGINT, SIGTERM };

/* Restores, then lets the signal take its default course. */
static void restore_and_reraise(int signal_number) {
    tactus_terminal_restore();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, signal_number);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(signal_number);
}

static char saved_leave_for_stop[64];
static size_t saved_leave_length_for_stop = 0;
static int saved_leave_fd_for_stop = -1;

static void on_stop(int signal_number) {
    (void)signal_number;
    /* Keep what to restore on the way back, restore, and stop for real. */
    memcpy(saved_leave_for_stop, leave_sequence, sizeof leave_sequence);
    saved_leave_length_for_stop = leave_length;
    saved_leave_fd_for_stop = leave_fd;
    int was_raw = is_raw;
    tactus_terminal_restore();
    is_raw = 0;
    raise(SIGSTOP);
    /* Continued: raw mode again, and a full redraw (the screen was the shell's meanwhile). */
    if (was_raw && have_saved) {
        tcsetattr(raw_fd, TCSAFLUSH, &raw_settings);
        is_raw = 1;
    }
    memcpy(leave_sequence, saved_leave_for_stop, sizeof leave_sequence);
    leave_length = saved_leave_length_for_stop;
    leave_fd = saved_leave_fd_for_stop;
    resized = 1;
}

static void on_resize(int signal_number) {
    (void)signal_number;
    resized = 1;
}

static void on_exit_restore(void) { tactus_terminal_restore(); }

void tactus_terminal_install_handlers(void) {
    if (handlers_installed) return;
    handlers_installed = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = restore_and_reraise;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        sigaction(fatal_signals[i], &action, NULL);
    }
    action.sa_handler = on_stop;
    sigaction(SIGTSTP, &action, NULL);
    action.sa_handler = on_resize;
    action.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &action, NULL);
    atexit(on_exit_restore);
}

int tactus_terminal_take_resize(void) {
    if (!resized) return 0;
    resized = 0;
    return 1;
}

int tactus_terminal_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

int tactus_pty_open(int *leader, int *follower) {
    int l = posix_openpt(O_RDWR | O_NOCTTY);
    if (l < 0) return -1;
    char *name = NULL;
    if (grantpt(l) != 0 || unlockpt(l) != 0 || (name = ptsname(l)) == NULL) { close(l); return -1; }
    int f = open(name, O_RDWR | O_NOCTTY);
    if (f < 0) { close(l); return -1; }
    *leader = l;
    *follower = f;
    return 0;
}

int tactus_pty_set_size(int leader, int rows, int columns) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)columns;
    return ioctl(leader, TIOCSWINSZ, &size);
}
