#ifndef TACTUS_CTERMINAL_H
#define TACTUS_CTERMINAL_H

/* The terminal's raw mode and its restoration on every way out of the process.
 * In C because the restoring runs inside signal handlers, where only
 * async-signal-safe calls (tcsetattr, write, sigaction, raise: POSIX.1-2017
 * 2.4.3) may be made, on state that needs no allocation or lazy initialisation. */

/* Saves the settings of terminal `input_fd` (once) and puts it in raw mode:
 * no echo, no line editing, no signals from Ctrl-C/Ctrl-Z (they arrive as
 * bytes), no CR/NL translation on input; output post-processing is kept so a
 * stray line still starts at the left margin. 0, or -1 with errno. */
int tactus_terminal_enter_raw(int input_fd);

/* The bytes written to `output_fd` when the terminal is restored (leave the
 * alternate screen, show the cursor, reset colours). Copied; at most 63 bytes. */
void tactus_terminal_set_leave_sequence(int output_fd, const char *sequence);

/* Writes the leave sequence and puts the saved settings back. Idempotent, and
 * async-signal-safe: called by the handlers, by atexit, and on the normal way out. */
void tactus_terminal_restore(void);

/* Installs handlers that restore the terminal and then let the signal do what
 * it would have done: SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGTRAP, SIGINT, SIGTERM (when not blocked: the run mode takes SIGINT and
 * SIGTERM synchronously), SIGTSTP (restored, stopped; raw mode again on SIGCONT),
 * and SIGWINCH (only noted, see take_resize). Also registers restore with atexit. */
void tactus_terminal_install_handlers(void);

/* 1 once after each SIGWINCH or SIGCONT (the screen must be measured and drawn again), else 0. */
int tactus_terminal_take_resize(void);

/* The window size of terminal `fd` (TIOCGWINSZ). 0, or -1 with errno. */
int tactus_terminal_size(int fd, int *rows, int *columns);

/* For the tests: a pseudo-terminal pair (the emulator's side and the program's),
 * and setting its window size as an emulator does. 0, or -1 with errno. */
int tactus_pty_open(int *leader, int *follower);
int tactus_pty_set_size(int leader, int rows, int columns);

#endif
