/* The pod sandbox's process of the bed's real node (testbed/realnode.sh): it holds the pod's
   namespaces and waits. No distribution packages registry.k8s.io/pause, so the bed builds
   this with `gcc -static` and serves it under that name from its loopback registry. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void quit(int sig) { (void)sig; _exit(0); }

/* PID 1 of a pod that shares its process namespace adopts orphans: reap them. */
static void reap(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  signal(SIGINT, quit);
  signal(SIGTERM, quit);
  signal(SIGCHLD, reap);
  for (;;) pause();
}
