// Package localcluster runs mco and real member clusters on one machine:
// a shared etcd, and per member a kube-apiserver, kube-controller-manager,
// kube-scheduler and kwok with fake nodes. `make local-up`, the e2e tests
// and the benchmark use it; the integration tests start single mco
// components through it (components.go).
package localcluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Process is a program started by this package, known by its pid.
type Process struct {
	Name string   `json:"name"`
	PID  int      `json:"pid"`
	Args []string `json:"args"`
	Log  string   `json:"log"`

	// logStart is the log's length when the process started: the log is
	// appended to by every start of the same name.
	logStart int64
}

// startProcess runs bin with args in a process group of its own, with its
// output in logDir/name.log. The process outlives the caller unless stopped.
func startProcess(name, bin string, args []string, logDir string) (*Process, error) {
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, fmt.Errorf("create log dir: %w", err)
	}
	logPath := filepath.Join(logDir, name+".log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open log of %s: %w", name, err)
	}
	defer logFile.Close()
	var logStart int64
	if info, err := logFile.Stat(); err == nil {
		logStart = info.Size()
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	// Reap the child when it exits so that it does not linger as a zombie
	// while this process lives on.
	go func() { _ = cmd.Wait() }()
	return &Process{Name: name, PID: cmd.Process.Pid, Args: append([]string{bin}, args...), Log: logPath, logStart: logStart}, nil
}

// Running reports whether the process is alive (and not a zombie).
func (p *Process) Running() bool {
	if p == nil || p.PID <= 0 {
		return false
	}
	if err := syscall.Kill(p.PID, 0); err != nil {
		return false
	}
	state, err := procState(fmt.Sprintf("/proc/%d/stat", p.PID))
	return err != nil || state != 'Z'
}

// procState reads the state letter of a /proc stat file; it follows the
// parenthesised command name.
func procState(path string) (byte, error) {
	stat, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return 0, fmt.Errorf("%s: no state field", path)
	}
	return stat[i+2], nil
}

// stopped reports whether every thread of the process has stopped.
func (p *Process) stopped() bool {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", p.PID))
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, t := range tasks {
		if state, err := procState(t); err == nil && state != 'T' && state != 't' {
			return false
		}
	}
	return true
}

// Stop sends SIGTERM, waits up to grace, then SIGKILL. Resumes a paused
// process first so that it can exit.
func (p *Process) Stop(grace time.Duration) {
	if !p.Running() {
		return
	}
	_ = syscall.Kill(p.PID, syscall.SIGCONT)
	_ = syscall.Kill(p.PID, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !p.Running() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(p.PID, syscall.SIGKILL)
	for i := 0; i < 100 && p.Running(); i++ {
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill ends the process at once (SIGKILL), as a crash would, and waits
// until it is gone.
func (p *Process) Kill() error {
	if err := p.signal(syscall.SIGKILL); err != nil {
		return err
	}
	for i := 0; i < 100 && p.Running(); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// Pause stops the process (SIGSTOP) to simulate an outage, and returns
// once every thread has stopped: the signal reaches the threads running on
// other CPUs a moment after kill returns.
func (p *Process) Pause() error {
	if err := p.signal(syscall.SIGSTOP); err != nil {
		return err
	}
	for i := 0; i < 200; i++ {
		if p.stopped() {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("%s (pid %d) did not stop within 2s of SIGSTOP", p.Name, p.PID)
}

// Resume continues a paused process (SIGCONT).
func (p *Process) Resume() error { return p.signal(syscall.SIGCONT) }

func (p *Process) signal(sig syscall.Signal) error {
	if !p.Running() {
		return fmt.Errorf("%s (pid %d) is not running", p.Name, p.PID)
	}
	if err := syscall.Kill(p.PID, sig); err != nil {
		return fmt.Errorf("signal %s (pid %d): %w", p.Name, p.PID, err)
	}
	return nil
}

// Restart starts the process again with the same arguments and log.
func (p *Process) Restart() error {
	p.Stop(10 * time.Second)
	np, err := startProcess(p.Name, p.Args[0], p.Args[1:], filepath.Dir(p.Log))
	if err != nil {
		return err
	}
	p.PID = np.PID
	return nil
}

// LogTail returns at most the last n bytes of the process's log, for
// showing why it failed.
func (p *Process) LogTail(n int) string {
	data, err := os.ReadFile(p.Log)
	if err != nil {
		return fmt.Sprintf("(read log: %v)", err)
	}
	if len(data) > n {
		data = data[len(data)-n:]
	}
	return string(data)
}

// readJSON and writeJSON persist state files.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("parse %s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
