package serve

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The measurements BENCHMARKS.md reports (not part of go test ./...: run
// them with go test ./serve -run '^$' -bench . -benchtime 1x). Sessions
// are real SSH sessions over loopback, client and server in this one
// process, so the memory and CPU figures include the clients' share
// (small: a buffer and a goroutine or two each).

// BenchmarkConnectToFirstFrame: from the dial to the first frame (the
// header), and to the home screen with the course loaded.
func BenchmarkConnectToFirstFrame(b *testing.B) {
	srv := startServer(b, Config{AttemptBurst: 1 << 20, AttemptsPerMinute: 1 << 20})
	var first, course time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		tm := connect(b, srv.addr, newKey(b), 100, 30)
		tm.waitFor(0, "Conflict Lab")
		first += time.Since(start)
		tm.waitFor(0, lesson1.Title)
		course += time.Since(start)
		tm.sess.Close()
		tm.client.Close()
	}
	b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms/first-frame")
	b.ReportMetric(float64(course.Microseconds())/1000/float64(b.N), "ms/course-frame")
}

func sessionCount(def int) int {
	if n, err := strconv.Atoi(os.Getenv("CONFLICTLAB_SERVE_SESSIONS")); err == nil && n > 0 {
		return n
	}
	return def
}

// rss is the process's resident set (VmRSS), in bytes; 0 if unknown.
func rss() uint64 { return procKB(0, "VmRSS") << 10 }

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkSessionMemory: the heap each session holds, idle on the home
// screen, then active: lesson 1 answered and its race played, the player,
// the race's run and its views in memory.
func BenchmarkSessionMemory(b *testing.B) {
	n := sessionCount(30)
	for i := 0; i < b.N; i++ {
		srv := startServer(b, Config{AttemptBurst: 1 << 20, AttemptsPerMinute: 1 << 20})
		base, baseRSS := heap(), rss()
		terms := make([]*term, n)
		for j := range terms {
			terms[j] = connect(b, srv.addr, newKey(b), 100, 30)
			terms[j].waitFor(0, lesson1.Title)
		}
		idle, idleRSS := heap(), rss()
		for _, tm := range terms {
			answerLesson1(tm)
		}
		for _, tm := range terms {
			tm.waitFor(0, "finished:")
		}
		active, activeRSS := heap(), rss()
		b.ReportMetric(float64(idle-base)/float64(n)/(1<<20), "MiB/idle-session")
		b.ReportMetric(float64(active-base)/float64(n)/(1<<20), "MiB/active-session")
		b.ReportMetric(float64(idleRSS-baseRSS)/float64(n)/(1<<20), "MiB-RSS/idle-session")
		b.ReportMetric(float64(activeRSS-baseRSS)/float64(n)/(1<<20), "MiB-RSS/active-session")
		for _, tm := range terms {
			tm.sess.Close()
			tm.client.Close()
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSessionsPerCore: n sessions each watch lesson 1's race play
// at 1x, restarted (r) as soon as it finishes, for a measured window;
// the CPU the process used per session-second gives how many such
// sessions one core carries.
func BenchmarkSessionsPerCore(b *testing.B) {
	n := sessionCount(30)
	window := 10 * time.Second
	for i := 0; i < b.N; i++ {
		srv := startServer(b, Config{AttemptBurst: 1 << 20, AttemptsPerMinute: 1 << 20})
		terms := make([]*term, n)
		for j := range terms {
			terms[j] = connect(b, srv.addr, newKey(b), 100, 30)
			answerLesson1(terms[j])
		}
		start, cpu0 := time.Now(), cpuTime()
		restarts := 0
		marks := make([]int, n)
		for time.Since(start) < window {
			for j, tm := range terms {
				marks[j] = tm.mark()
				tm.press("r")
			}
			for j, tm := range terms {
				tm.waitFor(marks[j], "finished:")
				restarts++
			}
		}
		wall, cpu := time.Since(start), cpuTime()-cpu0
		perSession := cpu.Seconds() / (wall.Seconds() * float64(n))
		b.ReportMetric(perSession*1000, "cpu-ms/session-s")
		b.ReportMetric(1/perSession, "sessions/core")
		b.ReportMetric(float64(restarts), "races-played")
		fmt.Fprintf(os.Stderr, "%d sessions, %s wall, %s CPU, %d races played\n", n, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), restarts)
		for _, tm := range terms {
			tm.sess.Close()
			tm.client.Close()
		}
	}
}
