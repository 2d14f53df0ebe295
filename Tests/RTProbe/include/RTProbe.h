#ifndef TACTUS_RTPROBE_H
#define TACTUS_RTPROBE_H
/* Loaded with LD_PRELOAD into a JACK client by the real-time test; nothing
   links against it. See rtprobe.c. */
unsigned long tactus_rtprobe_violations(void);
#endif
