package main

import (
	"log"
	"os"
)

// logger writes lines at or above its level to stderr; stdout belongs to the
// READY line alone (docs/protocol.md §2).
type logger struct {
	min int
	out *log.Logger
}

func newLogger(level string) *logger {
	min := 0
	for i, name := range logLevels {
		if name == level {
			min = i
		}
	}
	return &logger{min: min, out: log.New(os.Stderr, "", log.LstdFlags|log.Lmicroseconds)}
}

func (l *logger) at(level int, format string, args ...interface{}) {
	if level >= l.min {
		l.out.Printf(logLevels[level]+" sockjs-go-peer: "+format, args...)
	}
}

func (l *logger) debugf(format string, args ...interface{})   { l.at(0, format, args...) }
func (l *logger) infof(format string, args ...interface{})    { l.at(1, format, args...) }
func (l *logger) warningf(format string, args ...interface{}) { l.at(2, format, args...) }
