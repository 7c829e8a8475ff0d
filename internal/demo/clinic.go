package demo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// clinic — wound care: 4 clinics, 120 patients, about 300 wounds and their
// weekly assessments.

var clinicNames = []string{"AML Clinic", "Northside Wound Center", "Riverside Clinic", "Harbor Health"}

// clinicians work in pairs, one pair per clinic (index = clinic - 1).
var clinicians = [][2]string{
	{"Dr. Sarah Chen", "Nurse Maria Lopez"},
	{"Dr. James Okafor", "Nurse Emily Carter"},
	{"Dr. Priya Natarajan", "Nurse Daniel Kim"},
	{"Dr. Robert Hughes", "Nurse Aisha Rahman"},
}

var woundTypes = []string{"Diabetic Foot Ulcer", "Pressure Injury", "Venous Leg Ulcer", "Surgical Wound", "Traumatic Wound"}

var woundStatuses = []string{"Open", "Healing", "Healed"}

var woundDepths = []string{"Superficial", "Partial Thickness", "Full Thickness", "Stage 3", "Stage 4"}

// woundProfile is what is plausible for one wound type.
type woundProfile struct {
	weight       float64            // share of all wounds
	locations    map[string]float64 // location → weight
	depths       map[string]float64 // depth → weight
	areaMedian   float64            // cm², at first record
	healMedian   float64            // days to heal
	infectedRate float64
}

// woundProfiles is indexed like woundTypes. Pressure injuries are staged;
// the other types are described by thickness.
func woundProfiles() []woundProfile {
	return []woundProfile{
		{ // Diabetic Foot Ulcer
			weight:       0.25,
			locations:    map[string]float64{"Left Foot": 3, "Right Foot": 3, "Left Heel": 1, "Right Heel": 1},
			depths:       map[string]float64{"Superficial": 2, "Partial Thickness": 4, "Full Thickness": 4},
			areaMedian:   4.5,
			healMedian:   95,
			infectedRate: 0.25,
		},
		{ // Pressure Injury
			weight:       0.22,
			locations:    map[string]float64{"Sacrum": 5, "Left Heel": 2, "Right Heel": 2},
			depths:       map[string]float64{"Partial Thickness": 2, "Full Thickness": 1, "Stage 3": 4, "Stage 4": 3},
			areaMedian:   12,
			healMedian:   85,
			infectedRate: 0.20,
		},
		{ // Venous Leg Ulcer
			weight:       0.20,
			locations:    map[string]float64{"Left Leg": 1, "Right Leg": 1},
			depths:       map[string]float64{"Superficial": 3, "Partial Thickness": 5, "Full Thickness": 2},
			areaMedian:   14,
			healMedian:   110,
			infectedRate: 0.15,
		},
		{ // Surgical Wound
			weight:       0.15,
			locations:    map[string]float64{"Abdomen": 6, "Left Leg": 1, "Right Leg": 1, "Sacrum": 0.5},
			depths:       map[string]float64{"Superficial": 3, "Partial Thickness": 4, "Full Thickness": 3},
			areaMedian:   9,
			healMedian:   35,
			infectedRate: 0.12,
		},
		{ // Traumatic Wound
			weight:       0.18,
			locations:    map[string]float64{"Left Leg": 3, "Right Leg": 3, "Left Foot": 1, "Right Foot": 1, "Abdomen": 1},
			depths:       map[string]float64{"Superficial": 4, "Partial Thickness": 4, "Full Thickness": 2},
			areaMedian:   6,
			healMedian:   30,
			infectedRate: 0.14,
		},
	}
}

// pickKey draws a key of m by weight, iterating keys in sorted order so the
// draw never depends on map order.
func pickKey(r *rng, m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w := make([]float64, len(keys))
	for i, k := range keys {
		w[i] = m[k]
	}
	return keys[r.pick(w)]
}

type clinicPatient struct {
	id, fullName, gender, dob string
	clinic                    int
	createdAt                 string
}

// trend is how an unhealed wound's area moves.
type trend int

const (
	trendShrinking trend = iota
	trendGrowing
	trendFlat
)

type clinicWound struct {
	id         int
	patient    int // index into patients
	woundType  string
	location   string
	depth      string
	area       float64
	infected   bool
	status     string
	created    time.Time
	healed     time.Time // zero unless status is Healed
	trend      trend
	healDays   int // days to heal (Healed) or the projected days (Healing)
	clinicians [2]string
}

type clinicAssessment struct {
	wound     int // index into wounds
	on        time.Time
	area      float64
	pain      int
	clinician string
}

type clinicData struct {
	patients    []clinicPatient
	wounds      []clinicWound
	assessments []clinicAssessment
}

// genClinic draws the clinic source, drawing again (deterministically) until
// the spec's invariants hold.
func genClinic(seed int64, asOf time.Time) (*dataset, error) {
	var errs []error
	for attempt := range 50 {
		d := drawClinic(newRNG(seed, "clinic", itoa(attempt)), asOf)
		err := d.check(asOf)
		if err == nil {
			return d.dataset(), nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("no draw met the invariants: %w", errors.Join(errs...))
}

func drawClinic(r *rng, asOf time.Time) *clinicData {
	d := &clinicData{}
	d.patients = drawClinicPatients(r)
	d.wounds = drawWounds(r, asOf, d.patients)
	// Register each patient shortly before their first wound.
	first := make([]time.Time, len(d.patients))
	for _, w := range d.wounds {
		if first[w.patient].IsZero() || w.created.Before(first[w.patient]) {
			first[w.patient] = w.created
		}
	}
	for i := range d.patients {
		at := addDays(first[i], -r.between(1, 60))
		d.patients[i].createdAt = dateStr(at) + " " + clockStr(r.between(8*3600, 17*3600))
	}
	d.assessments = drawAssessments(r, asOf, d.wounds)
	return d
}

func drawClinicPatients(r *rng) []clinicPatient {
	// Clinic sizes are fixed; who goes where is drawn.
	var clinicOf []int
	for c, n := range []int{36, 30, 30, 24} {
		for range n {
			clinicOf = append(clinicOf, c+1)
		}
	}
	shuffle(r, clinicOf)
	born0 := time.Date(1930, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	patients := make([]clinicPatient, len(clinicOf))
	for i := range patients {
		p := clinicPatient{id: fmt.Sprintf("P%04d", i+1), clinic: clinicOf[i]}
		for {
			first := oneOf(r, femaleFirstNames)
			p.gender = "F"
			if r.chance(0.48) {
				first, p.gender = oneOf(r, maleFirstNames), "M"
			}
			p.fullName = first + " " + oneOf(r, lastNames)
			if !seen[p.fullName] {
				seen[p.fullName] = true
				break
			}
		}
		// Wound care skews old: most patients were born 1930-1965.
		span := daysBetween(born0, time.Date(1965, 12, 31, 0, 0, 0, 0, time.UTC))
		if r.chance(0.3) {
			span = daysBetween(born0, time.Date(2005, 12, 31, 0, 0, 0, 0, time.UTC))
		}
		p.dob = dateStr(addDays(born0, r.IntN(span+1)))
		patients[i] = p
	}
	return patients
}

func drawWounds(r *rng, asOf time.Time, patients []clinicPatient) []clinicWound {
	profiles := woundProfiles()
	typeWeights := make([]float64, len(profiles))
	for i, p := range profiles {
		typeWeights[i] = p.weight
	}
	var wounds []clinicWound
	for pi, p := range patients {
		n := 1 + r.pick([]float64{0.22, 0.33, 0.25, 0.12, 0.08})
		for range n {
			wounds = append(wounds, clinicWound{patient: pi, clinicians: clinicians[p.clinic-1]})
		}
	}
	// Ages: a fixed number of wounds are recent (the spec wants at least 30
	// in the last 30 days and 5 in the last 7); the rest spread over two years.
	ages := make([]int, len(wounds))
	for i := range ages {
		switch {
		case i < 9:
			ages[i] = r.between(0, 6)
		case i < 38:
			ages[i] = r.between(7, 29)
		default:
			ages[i] = r.between(30, 729)
		}
	}
	shuffle(r, ages)
	for i := range wounds {
		w := &wounds[i]
		ti := r.pick(typeWeights)
		prof := profiles[ti]
		w.woundType = woundTypes[ti]
		w.location = pickKey(r, prof.locations)
		w.depth = pickKey(r, prof.depths)
		w.area = round(clamp(r.lognormal(prof.areaMedian, 0.95), 0.5, 80), 1)
		w.created = addDays(asOf, -ages[i])
		heal := max(10, int(r.lognormal(prof.healMedian, 0.45)*(1+w.area/100)))
		chronic := r.chance(0.1)
		infectRate := prof.infectedRate
		switch {
		case !chronic && ages[i] > heal:
			w.status = "Healed"
			w.healDays = heal
			w.healed = addDays(w.created, w.healDays)
			infectRate *= 0.7
		case ages[i] >= 7 && r.chance(0.6):
			w.status, w.trend = "Healing", trendShrinking
			w.healDays = max(ages[i]+7, int(float64(ages[i])*r.uniform(1.3, 3)))
		default:
			w.status, w.trend = "Open", trendGrowing
			if r.chance(0.3) {
				w.trend = trendFlat
			}
			infectRate *= 1.5
		}
		w.infected = r.chance(infectRate)
	}
	slices.SortStableFunc(wounds, func(a, b clinicWound) int {
		return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.patient, b.patient))
	})
	for i := range wounds {
		wounds[i].id = i + 1
	}
	return wounds
}

func drawAssessments(r *rng, asOf time.Time, wounds []clinicWound) []clinicAssessment {
	basePain := map[string]float64{"Superficial": 2, "Partial Thickness": 3, "Full Thickness": 4, "Stage 3": 5, "Stage 4": 6}
	var out []clinicAssessment
	for wi, w := range wounds {
		end := asOf
		if w.status == "Healed" {
			end = w.healed
		}
		days := []int{}
		for t := 0; !addDays(w.created, t).After(end); t += 7 {
			days = append(days, t)
		}
		if w.status == "Healed" && days[len(days)-1] != w.healDays {
			days = append(days, w.healDays)
		}
		shape := r.uniform(0.7, 1.6)    // how the shrinking curve bends
		growth := r.uniform(0.03, 0.10) // weekly growth of worsening wounds
		primary := r.IntN(2)            // which of the clinic's pair usually sees the wound
		area := w.area
		for k, t := range days {
			a := clinicAssessment{wound: wi, on: addDays(w.created, t)}
			progress := 0.0
			switch {
			case k == 0:
				area = w.area
			case w.status == "Healed" && t == w.healDays:
				area = 0
				progress = 1
			case w.trend == trendShrinking:
				progress = float64(t) / float64(w.healDays)
				next := w.area * math.Pow(1-progress, shape) * (1 + r.normal(0, 0.04))
				area = math.Max(0.1, math.Min(area, next))
			case w.trend == trendGrowing:
				// Worsening wounds grow by a few percent a week, to at most double.
				progress = -math.Min(1, float64(t)/7*growth)
				area = math.Max(area, w.area*(1-progress)*(1+r.normal(0, 0.03)))
			default:
				area = math.Max(0.3, area*(1+r.normal(0, 0.05)))
			}
			a.area = round(area, 1)
			if k > 0 && w.status == "Healed" && t != w.healDays && a.area == 0 {
				a.area = 0.1
			}
			pain := basePain[w.depth] + r.normal(0, 1) - 3*progress
			if w.infected {
				pain += 2
			}
			a.pain = int(clamp(math.Round(pain), 0, 10))
			a.clinician = w.clinicians[primary]
			if r.chance(0.25) {
				a.clinician = w.clinicians[1-primary]
			}
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b clinicAssessment) int {
		return cmp.Or(a.on.Compare(b.on), cmp.Compare(a.wound, b.wound))
	})
	return out
}

// check verifies the invariants the spec and the evaluation suites rely on.
func (d *clinicData) check(asOf time.Time) error {
	var above25, above50, above60, infected int
	typeStatus := map[string]bool{}
	depths := map[string]bool{}
	clinicInfected := map[int]bool{}
	for _, w := range d.wounds {
		if w.area > 25 {
			above25++
		}
		if w.area > 50 {
			above50++
		}
		if w.area > 60 {
			above60++
		}
		if w.infected {
			infected++
			clinicInfected[d.patients[w.patient].clinic] = true
		}
		typeStatus[w.woundType+"/"+w.status] = true
		depths[w.depth] = true
	}
	var errs []error
	if above25 < 20 || above50 < 5 || above60 < 3 {
		errs = append(errs, fmt.Errorf("large wounds: %d > 25, %d > 50, %d > 60 cm²", above25, above50, above60))
	}
	if share := float64(infected) / float64(len(d.wounds)); share < 0.12 || share > 0.18 {
		errs = append(errs, fmt.Errorf("infected share %.2f, want about 0.15", share))
	}
	if len(clinicInfected) != len(clinicNames) {
		errs = append(errs, errors.New("a clinic has no infected wound"))
	}
	for _, t := range woundTypes {
		for _, s := range woundStatuses {
			if !typeStatus[t+"/"+s] {
				errs = append(errs, fmt.Errorf("no %s wound is %s", t, s))
			}
		}
	}
	if len(depths) != len(woundDepths) {
		errs = append(errs, fmt.Errorf("only %d of %d depths occur", len(depths), len(woundDepths)))
	}
	// Both "worsening" and "improving" open wounds, and both active and
	// inactive patients (assessed in the last 90 days or not).
	firstArea := map[int]float64{}
	lastArea := map[int]float64{}
	active := map[int]bool{}
	since := addDays(asOf, -90)
	for _, a := range d.assessments {
		if _, ok := firstArea[a.wound]; !ok {
			firstArea[a.wound] = a.area
		}
		lastArea[a.wound] = a.area
		if !a.on.Before(since) {
			active[d.wounds[a.wound].patient] = true
		}
	}
	var worse, better int
	for wi, w := range d.wounds {
		if w.status == "Healed" {
			continue
		}
		switch {
		case lastArea[wi] > firstArea[wi]:
			worse++
		case lastArea[wi] < firstArea[wi]:
			better++
		}
	}
	if worse < 10 || better < 10 {
		errs = append(errs, fmt.Errorf("unhealed wounds: %d worsening, %d improving", worse, better))
	}
	if len(active) < 20 || len(d.patients)-len(active) < 20 {
		errs = append(errs, fmt.Errorf("%d of %d patients active", len(active), len(d.patients)))
	}
	return errors.Join(errs...)
}

func (d *clinicData) dataset() *dataset {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	return &dataset{name: "clinic", tables: []*table{
		{
			name: "clinics",
			cols: []column{
				{name: "id", kind: kindInt, primaryKey: true},
				{name: "name", kind: kindText, notNull: true},
			},
			rows: len(clinicNames),
			row:  func(i int, dst []any) { dst[0], dst[1] = i+1, clinicNames[i] },
		},
		{
			name: "patients",
			cols: []column{
				{name: "id", kind: kindText, primaryKey: true},
				{name: "full_name", kind: kindText, notNull: true},
				{name: "gender", kind: kindText, notNull: true, check: "gender IN ('M','F')"},
				{name: "date_of_birth", kind: kindText, notNull: true},
				{name: "clinic_id", kind: kindInt, notNull: true, ref: "clinics(id)"},
				{name: "created_at", kind: kindText, notNull: true},
			},
			indexes: [][]string{{"clinic_id"}},
			rows:    len(d.patients),
			row: func(i int, dst []any) {
				p := &d.patients[i]
				dst[0], dst[1], dst[2], dst[3], dst[4], dst[5] = p.id, p.fullName, p.gender, p.dob, p.clinic, p.createdAt
			},
		},
		{
			name: "wounds",
			cols: []column{
				{name: "id", kind: kindInt, primaryKey: true},
				{name: "patient_id", kind: kindText, notNull: true, ref: "patients(id)"},
				{name: "wound_type", kind: kindText, notNull: true},
				{name: "location", kind: kindText, notNull: true},
				{name: "depth", kind: kindText, notNull: true},
				{name: "area_cm2", kind: kindReal, notNull: true},
				{name: "infected", kind: kindInt, notNull: true},
				{name: "status", kind: kindText, notNull: true},
				{name: "created_date", kind: kindText, notNull: true},
				{name: "healed_date", kind: kindText},
			},
			indexes: [][]string{{"patient_id"}, {"created_date"}},
			rows:    len(d.wounds),
			row: func(i int, dst []any) {
				w := &d.wounds[i]
				var healed any
				if !w.healed.IsZero() {
					healed = dateStr(w.healed)
				}
				dst[0], dst[1], dst[2], dst[3], dst[4] = w.id, d.patients[w.patient].id, w.woundType, w.location, w.depth
				dst[5], dst[6], dst[7], dst[8], dst[9] = w.area, b(w.infected), w.status, dateStr(w.created), healed
			},
		},
		{
			name: "assessments",
			cols: []column{
				{name: "id", kind: kindInt, primaryKey: true},
				{name: "wound_id", kind: kindInt, notNull: true, ref: "wounds(id)"},
				{name: "patient_id", kind: kindText, notNull: true, ref: "patients(id)"},
				{name: "assessed_on", kind: kindText, notNull: true},
				{name: "area_cm2", kind: kindReal, notNull: true},
				{name: "depth", kind: kindText, notNull: true},
				{name: "infected", kind: kindInt, notNull: true},
				{name: "pain_score", kind: kindInt, notNull: true, check: "pain_score BETWEEN 0 AND 10"},
				{name: "clinician", kind: kindText, notNull: true},
			},
			indexes: [][]string{{"wound_id", "assessed_on"}, {"patient_id", "assessed_on"}, {"assessed_on"}},
			rows:    len(d.assessments),
			row: func(i int, dst []any) {
				a := &d.assessments[i]
				w := &d.wounds[a.wound]
				dst[0], dst[1], dst[2], dst[3], dst[4] = i+1, w.id, d.patients[w.patient].id, dateStr(a.on), a.area
				dst[5], dst[6], dst[7], dst[8] = w.depth, b(w.infected), a.pain, a.clinician
			},
		},
	}}
}
