// The Kattis side of the Polygon package's testlib program(s) above, in
// the same file: each runs in a child process of its own (testlib ends a
// program with exit()), and its result becomes Kattis' (exit 42 accepted,
// 43 rejected). The file above defines one of:
//   JUDGE_SHIM_VALIDATOR   `prog [flags] < input`: the validator (testlib:
//                          exit 0 valid) -> 42 valid, 43 invalid.
//   JUDGE_SHIM_CHECKER     `prog input answer feedback_dir < output`:
//                          `checker input output answer` (testlib: 0 OK,
//                          1 WA, 2 PE, 7 points, 3 fail) -> 42 / 43, the
//                          checker's message in judgemessage.txt.
//   JUDGE_SHIM_INTERACTOR  `prog input answer feedback_dir`, stdin and
//                          stdout talking to the submission:
//                          `interactor input tout answer` (testlib: 0 OK,
//                          1 WA, 2 PE, 3 fail), then, with
//                          JUDGE_SHIM_HAS_CHECKER, `checker input tout
//                          answer` as above.
// Anything else a program does (a crash, FAIL) is a judge error: exit 1.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const int ACCEPTED = 42;
const int REJECTED = 43;

// Ends the shim without running static destructors: testlib's would
// report a program that never registered (the shim itself) as FAIL.
[[noreturn]] void end(int code) {
    std::fflush(nullptr);
    _exit(code);
}

[[noreturn]] void judge_error(const std::string& what) {
    std::fprintf(stderr, "%s\n", what.c_str());
    end(1);
}

// Runs `program(args)` in a child process, with stderr appended to
// `messages` when given; returns its wait status.
int run(int (*program)(int, char**), const std::vector<std::string>& args,
        const std::string& messages) {
    std::fflush(nullptr);
    pid_t child = fork();
    if (child < 0) judge_error(std::string("fork: ") + std::strerror(errno));
    if (child == 0) {
        if (!messages.empty()) {
            int fd = open(messages.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0) {
                dup2(fd, 2);
                close(fd);
            }
        }
        std::vector<char*> argv;
        for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        int code = program(static_cast<int>(args.size()), argv.data());
        std::fflush(nullptr);
        std::exit(code);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) judge_error(std::string("waitpid: ") + std::strerror(errno));
    }
    return status;
}

std::string describe(const std::string& program, int status) {
    if (WIFSIGNALED(status)) {
        return program + " was killed by signal " + std::to_string(WTERMSIG(status));
    }
    return program + " exited with " + std::to_string(WEXITSTATUS(status));
}

void note(const std::string& feedback, const std::string& text) {
    FILE* file = std::fopen((feedback + "/judgemessage.txt").c_str(), "a");
    if (file) {
        std::fprintf(file, "%s\n", text.c_str());
        std::fclose(file);
    }
}

// The Kattis verdict of a testlib checker's (or interactor's) status.
int decide(const std::string& program, int status, const std::string& feedback) {
    if (!WIFEXITED(status)) judge_error(describe(program, status));
    switch (WEXITSTATUS(status)) {
        case 0:
            return ACCEPTED;
        case 1:  // wrong answer
        case 2:  // presentation error
            return REJECTED;
        case 7:  // partial points (quitp): the export is pass-fail
            note(feedback, "partial points (testlib quitp) are not accepted in this export");
            return REJECTED;
        default:
            judge_error(describe(program, status));
    }
}

#if defined(JUDGE_SHIM_CHECKER)
// Copies stdin (the submission's output) to `path`.
void save_stdin(const std::string& path) {
    int out = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) judge_error("cannot write " + path + ": " + std::strerror(errno));
    char buffer[1 << 16];
    for (;;) {
        ssize_t got = read(0, buffer, sizeof buffer);
        if (got == 0) break;
        if (got < 0) {
            if (errno == EINTR) continue;
            judge_error(std::string("reading the output: ") + std::strerror(errno));
        }
        for (ssize_t at = 0; at < got;) {
            ssize_t put = write(out, buffer + at, static_cast<size_t>(got - at));
            if (put < 0) {
                if (errno == EINTR) continue;
                judge_error("writing " + path + ": " + std::strerror(errno));
            }
            at += put;
        }
    }
    close(out);
}

#endif

}  // namespace

int shim_main(int argc, char** argv) {
#if defined(JUDGE_SHIM_VALIDATOR)
    (void)argc;
    int status = run(judge_polygon_validator::main, {argv[0]}, "");
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ACCEPTED : REJECTED;
#elif defined(JUDGE_SHIM_CHECKER)
    if (argc < 4) judge_error("usage: prog input answer feedback_dir < output");
    const std::string input = argv[1], answer = argv[2], feedback = argv[3];
    const std::string output = feedback + "/submission_output";
    save_stdin(output);
    return decide("the checker",
                  run(judge_polygon_checker::main, {argv[0], input, output, answer},
                      feedback + "/judgemessage.txt"),
                  feedback);
#elif defined(JUDGE_SHIM_INTERACTOR)
    if (argc < 4) judge_error("usage: prog input answer feedback_dir");
    const std::string input = argv[1], answer = argv[2], feedback = argv[3];
    const std::string tout = feedback + "/interactor_output";
    int verdict = decide("the interactor",
                         run(judge_polygon_interactor::main, {argv[0], input, tout, answer},
                             feedback + "/judgemessage.txt"),
                         feedback);
#if defined(JUDGE_SHIM_HAS_CHECKER)
    if (verdict == ACCEPTED) {
        verdict = decide("the checker",
                         run(judge_polygon_checker::main, {argv[0], input, tout, answer},
                             feedback + "/judgemessage.txt"),
                         feedback);
    }
#endif
    return verdict;
#else
#error "define JUDGE_SHIM_VALIDATOR, JUDGE_SHIM_CHECKER or JUDGE_SHIM_INTERACTOR"
#endif
}

int main(int argc, char** argv) { end(shim_main(argc, argv)); }
