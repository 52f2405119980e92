package api

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/metrics"
)

// chart is the console's picture of the last hour, drawn server-side as
// inline SVG from the samples the process keeps (metrics.History): the
// throughput (terminal outcomes per minute between two samples) and the
// queue head's age. No chart library, no script.
type chart struct {
	SVG           template.HTML
	Samples       int
	MaxRate       float64 // messages per minute
	MaxHeadAge    float64 // seconds
	LastRate      float64
	LastHeadAge   float64
	From, To      time.Time
	HasThroughput bool
	Collecting    bool // too few samples yet for lines worth reading
}

// Chart geometry (SVG user units; the CSS scales it to the panel's width):
// the plot inside margins that hold the axis labels.
const (
	chartW, chartH  = 600.0, 140.0
	plotL, plotR    = 52.0, 548.0 // left: throughput axis, right: head-age axis
	plotT, plotB    = 8.0, 118.0  // below: the time axis
	chartMinSamples = 3           // fewer: "collecting" instead of lines worth reading
)

func newChart(kept []metrics.Sample, now time.Time) chart {
	c := chart{Samples: len(kept), From: now.Add(-time.Hour), To: now}
	x := func(t time.Time) float64 {
		f := float64(t.Sub(c.From)) / float64(time.Hour)
		return plotL + max(0, min(1, f))*(plotR-plotL)
	}
	y := func(v, top float64) float64 {
		if top <= 0 {
			return plotB
		}
		return plotB - (v/top)*(plotB-plotT)
	}
	type pt struct {
		t time.Time
		v float64
	}
	var rates, ages []pt
	for i, s := range kept {
		if s.At.Before(c.From) {
			continue
		}
		if s.StatusOK {
			ages = append(ages, pt{s.At, s.HeadAge})
			c.MaxHeadAge, c.LastHeadAge = max(c.MaxHeadAge, s.HeadAge), s.HeadAge
		}
		if i > 0 {
			if dt := s.At.Sub(kept[i-1].At).Minutes(); dt > 0 {
				r := float64(s.Finished-kept[i-1].Finished) / dt
				rates = append(rates, pt{s.At, r})
				c.MaxRate, c.LastRate, c.HasThroughput = max(c.MaxRate, r), r, true
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="throughput and head age over the last hour">`, chartW, chartH)
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="#fbfbfd" stroke="#d0d4dc"/>`, plotL, plotT, plotR-plotL, plotB-plotT)
	label := func(lx, ly float64, anchor, color, text string) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="%s" fill="%s" font-size="11">%s</text>`, lx, ly, anchor, color, text)
	}
	// The time axis: a grid line and a label every 15 minutes.
	for i := 0; i <= 4; i++ {
		gx := plotL + float64(i)*(plotR-plotL)/4
		if i > 0 && i < 4 {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#e6e8ee"/>`, gx, plotT, gx, plotB)
		}
		text := fmt.Sprintf("−%d min", 60-15*i)
		if i == 4 {
			text = "now"
		}
		label(gx, chartH-6, "middle", "#5a6478", text)
	}
	// The value axes: throughput on the left, head age on the right, each
	// from 0 to its maximum over the hour.
	label(plotL-4, plotT+9, "end", "#2b6cb0", fmt.Sprintf("%.1f/min", c.MaxRate))
	label(plotL-4, plotB, "end", "#2b6cb0", "0")
	label(plotR+4, plotT+9, "start", "#c05621", humanAge(c.MaxHeadAge))
	label(plotR+4, plotB, "start", "#c05621", "0s")
	if c.Collecting = c.Samples < chartMinSamples; c.Collecting {
		label((plotL+plotR)/2, (plotT+plotB)/2+4, "middle", "#5a6478",
			fmt.Sprintf("collecting (one sample per %.0f s)", metrics.HistoryInterval.Seconds()))
	}
	line := func(pts []pt, top float64, color string) {
		if len(pts) == 0 {
			return
		}
		var p strings.Builder
		for _, q := range pts {
			fmt.Fprintf(&p, "%.1f,%.1f ", x(q.t), y(q.v, top))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`, color, strings.TrimSpace(p.String()))
		last := pts[len(pts)-1] // marked, so even one sample shows
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, x(last.t), y(last.v, top), color)
	}
	line(rates, c.MaxRate, "#2b6cb0")
	line(ages, c.MaxHeadAge, "#c05621")
	b.WriteString(`</svg>`)
	// Only numbers and constants are written above: nothing to escape.
	c.SVG = template.HTML(b.String()) //nolint:gosec
	return c
}
