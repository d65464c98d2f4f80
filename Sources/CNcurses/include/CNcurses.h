#ifndef CNCURSES_H
#define CNCURSES_H
#endif
