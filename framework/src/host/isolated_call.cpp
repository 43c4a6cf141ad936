// SPDX-License-Identifier: Apache-2.0
#include "isolated_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace npu::detail {

namespace {

/// Marks the end of a complete answer, so that a child dying halfway through writing is noticed.
constexpr char kEndOfAnswer = '\x04';

void writeAll(int descriptor, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t count = ::write(descriptor, text.data() + written, text.size() - written);
    if (count < 0 && errno == EINTR) {
      continue;
    }
    if (count <= 0) {
      return;
    }
    written += static_cast<std::size_t>(count);
  }
}

[[noreturn]] void runChild(int answerPipe, const std::function<std::string()>& work) {
  // A crash must end the child with its signal, whatever handlers the parent installed (a test runner's,
  // a sanitizer's), so that it is reported as the crash it is.
  for (const int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS}) {
    std::signal(signal, SIG_DFL);
  }
  const int devNull = ::open("/dev/null", O_WRONLY);
  if (devNull >= 0) {
    ::dup2(devNull, STDOUT_FILENO);
    ::dup2(devNull, STDERR_FILENO);
  }
  std::string answer;
  try {
    answer = work();
  } catch (...) {
    ::_exit(3);
  }
  writeAll(answerPipe, answer + kEndOfAnswer);
  // _exit: neither the plugin's destructors nor atexit handlers run in the child.
  ::_exit(0);
}

/// Reads the child's answer until it closes the pipe or the deadline passes; false on timeout.
bool readAnswer(int descriptor, std::string& received, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      return false;
    }
    pollfd request{descriptor, POLLIN, 0};
    const int ready = ::poll(&request, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      return ready == 0 ? false : true;
    }
    const ssize_t count = ::read(descriptor, buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) {
      continue;
    }
    if (count <= 0) {
      return true;
    }
    received.append(buffer, static_cast<std::size_t>(count));
  }
}

std::string describeEnd(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "crashed with signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  }
  if (WIFEXITED(status)) {
    return "ended the process with exit status " + std::to_string(WEXITSTATUS(status)) +
           " (its code called exit() or threw through C code)";
  }
  return "stopped unexpectedly";
}

} // namespace

IsolatedOutcome runIsolated(const std::function<std::string()>& work, std::chrono::milliseconds timeout) {
  int pipeEnds[2];
  if (::pipe2(pipeEnds, O_CLOEXEC) != 0) {
    return {std::nullopt, std::string("cannot create a pipe: ") + std::strerror(errno)};
  }
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipeEnds[0]);
    ::close(pipeEnds[1]);
    return {std::nullopt, std::string("cannot start a process: ") + std::strerror(errno)};
  }
  if (child == 0) {
    ::close(pipeEnds[0]);
    runChild(pipeEnds[1], work);
  }
  ::close(pipeEnds[1]);
  std::string received;
  const bool finished = readAnswer(pipeEnds[0], received, timeout);
  ::close(pipeEnds[0]);
  if (!finished) {
    ::kill(child, SIGKILL);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) {
    return {std::nullopt, "did not finish within " + std::to_string(timeout.count() / 1000) + " s and was stopped"};
  }
  if (!received.empty() && received.back() == kEndOfAnswer && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    received.pop_back();
    return {std::move(received), {}};
  }
  return {std::nullopt, describeEnd(status)};
}

} // namespace npu::detail
