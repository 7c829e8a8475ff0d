package demo

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// trades — market data for 20 US large caps: daily bars for the 250 weekdays
// ending at as_of, and trades and quotes for the last 60 of them.
//
// Prices come from one simulated minute-by-minute path per symbol: each day's
// open, high, low and close are read off the path, and every trade and quote
// of that day is priced from the path at its minute, so trades always fall
// within their day's bar.

type symbolInfo struct {
	symbol, company, sector, exchange string
	price                             float64 // realistic level of the last close
	vol                               float64 // daily volatility
	volume                            float64 // average daily volume, shares
}

var symbols = []symbolInfo{
	{"AAPL", "Apple Inc.", "Technology", "NASDAQ", 228, 0.016, 55e6},
	{"MSFT", "Microsoft Corporation", "Technology", "NASDAQ", 425, 0.015, 21e6},
	{"NVDA", "NVIDIA Corporation", "Technology", "NASDAQ", 135, 0.031, 240e6},
	{"AMZN", "Amazon.com, Inc.", "Consumer Discretionary", "NASDAQ", 205, 0.020, 42e6},
	{"GOOGL", "Alphabet Inc.", "Communication Services", "NASDAQ", 178, 0.018, 27e6},
	{"META", "Meta Platforms, Inc.", "Communication Services", "NASDAQ", 585, 0.022, 14e6},
	{"TSLA", "Tesla, Inc.", "Consumer Discretionary", "NASDAQ", 255, 0.035, 95e6},
	{"PEP", "PepsiCo, Inc.", "Consumer Staples", "NASDAQ", 152, 0.010, 6e6},
	{"CSCO", "Cisco Systems, Inc.", "Technology", "NASDAQ", 58, 0.012, 19e6},
	{"INTC", "Intel Corporation", "Technology", "NASDAQ", 23, 0.028, 60e6},
	{"JPM", "JPMorgan Chase & Co.", "Financials", "NYSE", 242, 0.014, 9e6},
	{"V", "Visa Inc.", "Financials", "NYSE", 312, 0.012, 7e6},
	{"JNJ", "Johnson & Johnson", "Health Care", "NYSE", 156, 0.010, 7.5e6},
	{"WMT", "Walmart Inc.", "Consumer Staples", "NYSE", 91, 0.011, 16e6},
	{"XOM", "Exxon Mobil Corporation", "Energy", "NYSE", 113, 0.015, 15e6},
	{"PG", "The Procter & Gamble Company", "Consumer Staples", "NYSE", 166, 0.010, 7e6},
	{"MA", "Mastercard Incorporated", "Financials", "NYSE", 522, 0.013, 3e6},
	{"HD", "The Home Depot, Inc.", "Consumer Discretionary", "NYSE", 402, 0.013, 3.8e6},
	{"KO", "The Coca-Cola Company", "Consumer Staples", "NYSE", 68, 0.009, 13e6},
	{"ORCL", "Oracle Corporation", "Technology", "NYSE", 172, 0.019, 9e6},
}

var venues = []string{"NASDAQ", "NYSE", "ARCA", "BATS", "IEX"}

const (
	barDays        = 250
	tickDays       = 60
	tradeCount     = 200_000
	quoteCount     = 100_000
	sessionOpen    = 13*3600 + 30*60 // 13:30:00 UTC
	sessionSeconds = 390 * 60        // to 20:00:00 UTC
	sessionMinutes = 390
)

type bar struct {
	open, high, low, close float64
	volume                 int64
}

type trade struct {
	sec      int32 // seconds after midnight UTC
	day      uint8 // index into the tick days
	symbol   uint8
	sell     bool
	venue    uint8
	quantity int32
	price    float64
}

type quote struct {
	sec              int32
	day              uint8
	symbol           uint8
	bidSize, askSize int32
	bid, ask, last   float64
}

type tradesData struct {
	barDays  []time.Time // oldest first
	bars     [][]bar     // [symbol][day]
	tickDays []time.Time // the last tickDays of barDays
	// minutes[symbol][tick day] is the price at each minute of the session
	// (index 0 is the open, sessionMinutes the close).
	minutes [][][]float64
	trades  []trade
	quotes  []quote
}

func genTrades(seed int64, asOf time.Time) (*dataset, error) {
	d := &tradesData{barDays: weekdaysEnding(asOf, barDays)}
	d.tickDays = d.barDays[barDays-tickDays:]
	d.bars = make([][]bar, len(symbols))
	d.minutes = make([][][]float64, len(symbols))
	for si := range symbols {
		d.bars[si], d.minutes[si] = simulateSymbol(newRNG(seed, "trades", symbols[si].symbol), symbols[si])
	}
	d.trades = drawTrades(newRNG(seed, "trades", "trades"), d)
	d.quotes = drawQuotes(newRNG(seed, "trades", "quotes"), d)
	return d.dataset(), nil
}

// simulateSymbol walks one symbol's price minute by minute over barDays
// sessions (with overnight gaps), scaled so the last close lands near the
// symbol's realistic level, and returns the daily bars and the minute prices
// of the last tickDays sessions.
func simulateSymbol(r *rng, s symbolInfo) ([]bar, [][]float64) {
	minuteVol := s.vol * 0.9 / math.Sqrt(sessionMinutes)
	drift := r.normal(0.0003, 0.0005) / sessionMinutes
	logBars := make([][4]float64, barDays) // open, high, low, close in log space
	logMinutes := make([][]float64, 0, tickDays)
	x := 0.0
	for di := range barDays {
		x += r.normal(0, s.vol*0.3) // overnight gap
		path := make([]float64, sessionMinutes+1)
		path[0] = x
		hi, lo := x, x
		for m := 1; m <= sessionMinutes; m++ {
			x += drift + r.normal(0, minuteVol)
			path[m] = x
			hi, lo = math.Max(hi, x), math.Min(lo, x)
		}
		logBars[di] = [4]float64{path[0], hi, lo, x}
		if di >= barDays-tickDays {
			logMinutes = append(logMinutes, path)
		}
	}
	shift := math.Log(s.price*r.uniform(0.92, 1.08)) - x
	bars := make([]bar, barDays)
	prevClose := math.Exp(logBars[0][0] + shift)
	for di, lb := range logBars {
		b := bar{
			open:  round(math.Exp(lb[0]+shift), 2),
			high:  round(math.Exp(lb[1]+shift), 2),
			low:   round(math.Exp(lb[2]+shift), 2),
			close: round(math.Exp(lb[3]+shift), 2),
		}
		move := math.Abs(b.close/prevClose - 1)
		prevClose = b.close
		b.volume = int64(s.volume * r.lognormal(1, 0.25) * (1 + 15*move))
		bars[di] = b
	}
	minutes := make([][]float64, len(logMinutes))
	for i, path := range logMinutes {
		for m := range path {
			path[m] = math.Exp(path[m] + shift)
		}
		minutes[i] = path
	}
	return bars, minutes
}

// cells apportions n events over (tick day, symbol) by each symbol's
// activity and each day's volume.
func (d *tradesData) cells(n int) []int {
	weights := make([]float64, tickDays*len(symbols))
	for di := range tickDays {
		for si, s := range symbols {
			dayVolume := float64(d.bars[si][barDays-tickDays+di].volume) / s.volume
			weights[di*len(symbols)+si] = math.Sqrt(s.volume) * dayVolume
		}
	}
	return apportion(n, weights)
}

// sessionSecond draws a second of the session, busier at the open and close.
func sessionSecond(r *rng) int32 {
	switch x := r.Float64(); {
	case x < 0.18:
		return int32(sessionOpen + r.IntN(1800))
	case x < 0.36:
		return int32(sessionOpen + sessionSeconds - 1800 + r.IntN(1800))
	}
	return int32(sessionOpen + r.IntN(sessionSeconds))
}

// priceAt returns the path price at second sec of tick day di, with a little
// noise, kept within the day's bar.
func (d *tradesData) priceAt(r *rng, si, di int, sec int32, noise float64) float64 {
	m := int(sec-sessionOpen) / 60
	p := d.minutes[si][di][m] * (1 + r.normal(0, noise))
	b := d.bars[si][barDays-tickDays+di]
	return clamp(round(p, 2), b.low, b.high)
}

// drawQuantity draws a trade size: odd lots, round lots with a long tail, and
// a few block trades over 10,000 shares.
func drawQuantity(r *rng) int32 {
	switch x := r.Float64(); {
	case x < 0.003:
		return int32(math.Round(r.lognormal(25_000, 0.6)/100)*100) + 10_000
	case x < 0.35:
		return int32(r.between(1, 99))
	}
	return int32(math.Max(1, math.Round(r.lognormal(200, 0.9)/100)) * 100)
}

func drawTrades(r *rng, d *tradesData) []trade {
	counts := d.cells(tradeCount)
	trades := make([]trade, 0, tradeCount)
	for di := range tickDays {
		first := len(trades)
		for si, s := range symbols {
			venueWeights := []float64{40, 10, 20, 20, 10}
			if s.exchange == "NYSE" {
				venueWeights = []float64{10, 40, 20, 20, 10}
			}
			for range counts[di*len(symbols)+si] {
				t := trade{
					sec:      sessionSecond(r),
					day:      uint8(di),
					symbol:   uint8(si),
					sell:     r.chance(0.5),
					venue:    uint8(r.pick(venueWeights)),
					quantity: drawQuantity(r),
				}
				t.price = d.priceAt(r, si, di, t.sec, 0.0003)
				trades = append(trades, t)
			}
		}
		day := trades[first:]
		slices.SortStableFunc(day, func(a, b trade) int { return cmp.Compare(a.sec, b.sec) })
	}
	return trades
}

func drawQuotes(r *rng, d *tradesData) []quote {
	counts := d.cells(quoteCount)
	quotes := make([]quote, 0, quoteCount)
	for di := range tickDays {
		first := len(quotes)
		for si := range symbols {
			for range counts[di*len(symbols)+si] {
				q := quote{sec: sessionSecond(r), day: uint8(di), symbol: uint8(si)}
				mid := d.priceAt(r, si, di, q.sec, 0)
				spread := math.Max(1, math.Round(mid*r.uniform(1, 5)/100)) // cents: 1-5 bp
				q.bid = round(mid-spread/200, 2)
				q.ask = round(q.bid+spread/100, 2)
				q.last = d.priceAt(r, si, di, q.sec, 0.0002)
				q.last = clamp(q.last, round(q.bid-0.01, 2), round(q.ask+0.01, 2))
				q.bidSize = int32(100 * (1 + int(r.lognormal(3, 0.9))))
				q.askSize = int32(100 * (1 + int(r.lognormal(3, 0.9))))
				quotes = append(quotes, q)
			}
		}
		day := quotes[first:]
		slices.SortStableFunc(day, func(a, b quote) int { return cmp.Compare(a.sec, b.sec) })
	}
	return quotes
}

func (d *tradesData) dataset() *dataset {
	barDates := make([]string, len(d.barDays))
	for i, t := range d.barDays {
		barDates[i] = dateStr(t)
	}
	tickDates := barDates[barDays-tickDays:]
	stamp := func(day uint8, sec int32) string { return tickDates[day] + " " + clockStr(int(sec)) }
	return &dataset{name: "trades", tables: []*table{
		{
			name: "symbols",
			cols: []column{
				{name: "symbol", kind: kindText, primaryKey: true},
				{name: "company", kind: kindText, notNull: true},
				{name: "sector", kind: kindText, notNull: true},
				{name: "exchange", kind: kindText, notNull: true},
			},
			rows: len(symbols),
			row: func(i int, dst []any) {
				s := &symbols[i]
				dst[0], dst[1], dst[2], dst[3] = s.symbol, s.company, s.sector, s.exchange
			},
		},
		{
			name: "trades",
			cols: []column{
				{name: "id", kind: kindInt, primaryKey: true},
				{name: "symbol", kind: kindText, notNull: true, ref: "symbols(symbol)"},
				{name: "traded_at", kind: kindText, notNull: true},
				{name: "price", kind: kindReal, notNull: true},
				{name: "quantity", kind: kindInt, notNull: true},
				{name: "side", kind: kindText, notNull: true, check: "side IN ('BUY','SELL')"},
				{name: "venue", kind: kindText, notNull: true},
			},
			indexes: [][]string{{"symbol", "traded_at"}},
			rows:    len(d.trades),
			row: func(i int, dst []any) {
				t := &d.trades[i]
				side := "BUY"
				if t.sell {
					side = "SELL"
				}
				dst[0], dst[1], dst[2], dst[3] = i+1, symbols[t.symbol].symbol, stamp(t.day, t.sec), t.price
				dst[4], dst[5], dst[6] = int(t.quantity), side, venues[t.venue]
			},
		},
		{
			name: "quotes",
			cols: []column{
				{name: "id", kind: kindInt, primaryKey: true},
				{name: "symbol", kind: kindText, notNull: true, ref: "symbols(symbol)"},
				{name: "quoted_at", kind: kindText, notNull: true},
				{name: "bid_price", kind: kindReal, notNull: true},
				{name: "ask_price", kind: kindReal, notNull: true},
				{name: "last_price", kind: kindReal, notNull: true},
				{name: "bid_size", kind: kindInt, notNull: true},
				{name: "ask_size", kind: kindInt, notNull: true},
			},
			indexes: [][]string{{"symbol", "quoted_at"}},
			rows:    len(d.quotes),
			row: func(i int, dst []any) {
				q := &d.quotes[i]
				dst[0], dst[1], dst[2], dst[3] = i+1, symbols[q.symbol].symbol, stamp(q.day, q.sec), q.bid
				dst[4], dst[5], dst[6], dst[7] = q.ask, q.last, int(q.bidSize), int(q.askSize)
			},
		},
		{
			name: "daily_bars",
			cols: []column{
				{name: "symbol", kind: kindText, notNull: true, ref: "symbols(symbol)"},
				{name: "trade_date", kind: kindText, notNull: true},
				{name: "open_price", kind: kindReal, notNull: true},
				{name: "high_price", kind: kindReal, notNull: true},
				{name: "low_price", kind: kindReal, notNull: true},
				{name: "close_price", kind: kindReal, notNull: true},
				{name: "volume", kind: kindBigInt, notNull: true},
			},
			primaryKey: []string{"symbol", "trade_date"},
			indexes:    [][]string{{"trade_date"}},
			rows:       len(symbols) * barDays,
			row: func(i int, dst []any) {
				// Rows by date, then symbol, like a market data feed.
				di, si := i/len(symbols), i%len(symbols)
				b := &d.bars[si][di]
				dst[0], dst[1], dst[2], dst[3] = symbols[si].symbol, barDates[di], b.open, b.high
				dst[4], dst[5], dst[6] = b.low, b.close, b.volume
			},
		},
	}}
}
