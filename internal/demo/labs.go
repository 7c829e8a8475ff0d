package demo

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// labs — personal lab results: three fixed patients, each tested every 80-100
// days over the three years before as_of with a panel of 14 analytes.

type labPatient struct{ id, fullName, gender, dob string }

var labPatients = []labPatient{
	{"L1", "Ivan Petrov", "M", "1985-03-15"},
	{"L2", "John Doe", "M", "1978-06-10"},
	{"L3", "Maria Rodriguez", "F", "1992-11-20"},
}

// analyte is one line of the panel. A reference bound of NaN is NULL (the
// lab gives none); bounds can differ by gender (index 0 male, 1 female).
type analyte struct {
	name     string
	unit     string
	decimals int
	low      [2]float64
	high     [2]float64
}

var nan = math.NaN()

var analytes = []analyte{
	{"HDL Cholesterol", "mg/dL", 0, [2]float64{40, 50}, [2]float64{nan, nan}},
	{"LDL Cholesterol", "mg/dL", 0, [2]float64{nan, nan}, [2]float64{100, 100}},
	{"Total Cholesterol", "mg/dL", 0, [2]float64{125, 125}, [2]float64{200, 200}},
	{"Triglycerides", "mg/dL", 0, [2]float64{nan, nan}, [2]float64{150, 150}},
	{"Glucose", "mg/dL", 0, [2]float64{70, 70}, [2]float64{99, 99}},
	{"HbA1c", "%", 1, [2]float64{4.0, 4.0}, [2]float64{5.6, 5.6}},
	{"Vitamin D2 (Ergocalciferol)", "ng/mL", 1, [2]float64{nan, nan}, [2]float64{nan, nan}},
	{"Vitamin D3 (Cholecalciferol)", "ng/mL", 1, [2]float64{nan, nan}, [2]float64{nan, nan}},
	{"25-OH Vitamin D", "ng/mL", 1, [2]float64{30, 30}, [2]float64{100, 100}},
	{"Vitamin B12", "pg/mL", 0, [2]float64{200, 200}, [2]float64{900, 900}},
	{"Folate", "ng/mL", 1, [2]float64{3.0, 3.0}, [2]float64{20.0, 20.0}},
	{"Ferritin", "ng/mL", 0, [2]float64{30, 15}, [2]float64{400, 150}},
	{"TSH", "mIU/L", 2, [2]float64{0.4, 0.4}, [2]float64{4.0, 4.0}},
	{"Hemoglobin", "g/dL", 1, [2]float64{13.5, 12.0}, [2]float64{17.5, 15.5}},
}

// course is how one analyte moves for one patient over the three years:
// linear from start to end plus noise of the given standard deviation.
type course struct{ start, end, sd float64 }

// labCourses gives, per patient (like labPatients) and analyte (like
// analytes), the value's course. Total cholesterol and 25-OH vitamin D are
// derived (Friedewald: HDL + LDL + TG/5; D2 + D3), so their courses are
// unused. Ivan starts vitamin D3 supplements and his LDL creeps up; John is
// drifting into type 2 diabetes while a statin lowers his LDL; Maria's iron
// stores recover while her TSH creeps towards the upper limit.
var labCourses = [][]course{
	{ // L1 Ivan Petrov
		{44, 41, 2}, {132, 158, 6}, {}, {150, 175, 15}, {94, 103, 4}, {5.4, 5.8, 0.1},
		{1.2, 1.0, 0.3}, {15, 33, 2.5}, {}, {420, 380, 40}, {9, 8, 1.2}, {180, 210, 25},
		{1.8, 2.1, 0.3}, {15.1, 14.9, 0.3},
	},
	{ // L2 John Doe
		{38, 35, 2}, {152, 124, 7}, {}, {210, 240, 20}, {106, 124, 5}, {6.0, 6.6, 0.1},
		{2.5, 2.2, 0.4}, {24, 22, 3}, {}, {350, 300, 35}, {7, 6.5, 1}, {260, 300, 30},
		{2.5, 2.8, 0.3}, {14.6, 14.2, 0.3},
	},
	{ // L3 Maria Rodriguez
		{62, 66, 3}, {98, 105, 6}, {}, {85, 90, 10}, {86, 88, 4}, {5.1, 5.2, 0.1},
		{0.8, 0.9, 0.2}, {21, 27, 3}, {}, {510, 470, 45}, {12, 11, 1.5}, {18, 32, 4},
		{2.9, 3.9, 0.3}, {11.6, 12.4, 0.3},
	},
}

type labResult struct {
	patient int // index into labPatients
	analyte int // index into analytes
	value   float64
	date    time.Time
}

func genLabs(seed int64, asOf time.Time) (*dataset, error) {
	var results []labResult
	type visit struct {
		patient int
		date    time.Time
	}
	var visits []visit
	start := asOf.AddDate(-3, 0, 0)
	for pi := range labPatients {
		r := newRNG(seed, "labs", labPatients[pi].id, "dates")
		var dates []time.Time
		for d := addDays(asOf, -r.between(3, 60)); d.After(start); d = addDays(d, -r.between(80, 100)) {
			dates = append(dates, d)
		}
		for i := len(dates) - 1; i >= 0; i-- {
			visits = append(visits, visit{pi, dates[i]})
		}
	}
	// Rows in date order, then patient, then panel order.
	slices.SortStableFunc(visits, func(a, b visit) int {
		return cmp.Or(a.date.Compare(b.date), cmp.Compare(a.patient, b.patient))
	})
	span := float64(daysBetween(start, asOf))
	for _, v := range visits {
		r := newRNG(seed, "labs", labPatients[v.patient].id, dateStr(v.date))
		frac := float64(daysBetween(start, v.date)) / span
		// Vitamin D follows the sun: highest in late summer.
		season := math.Cos(2 * math.Pi * float64(v.date.YearDay()-235) / 365)
		vals := make([]float64, len(analytes))
		for ai, a := range analytes {
			c := labCourses[v.patient][ai]
			x := c.start + (c.end-c.start)*frac + r.normal(0, c.sd)
			if a.name == "Vitamin D3 (Cholecalciferol)" {
				x += 4 * season
			}
			vals[ai] = round(math.Max(x, math.Pow10(-a.decimals)), a.decimals)
		}
		vals[2] = round(vals[0]+vals[1]+vals[3]/5, 0) // Total Cholesterol (Friedewald)
		vals[8] = round(vals[6]+vals[7], 1)           // 25-OH Vitamin D = D2 + D3
		for ai := range analytes {
			results = append(results, labResult{patient: v.patient, analyte: ai, value: vals[ai], date: v.date})
		}
	}
	nullable := func(x float64) any {
		if math.IsNaN(x) {
			return nil
		}
		return x
	}
	return &dataset{name: "labs", tables: []*table{
		{
			name: "patients",
			cols: []column{
				{name: "id", kind: kindText, primaryKey: true},
				{name: "full_name", kind: kindText, notNull: true},
				{name: "gender", kind: kindText, notNull: true},
				{name: "date_of_birth", kind: kindText, notNull: true},
			},
			rows: len(labPatients),
			row: func(i int, dst []any) {
				p := labPatients[i]
				dst[0], dst[1], dst[2], dst[3] = p.id, p.fullName, p.gender, p.dob
			},
		},
		{
			name: "lab_results",
			cols: []column{
				{name: "id", kind: kindInt, primaryKey: true},
				{name: "patient_id", kind: kindText, notNull: true, ref: "patients(id)"},
				{name: "analyte", kind: kindText, notNull: true},
				{name: "value", kind: kindReal, notNull: true},
				{name: "unit", kind: kindText, notNull: true},
				{name: "reference_low", kind: kindReal},
				{name: "reference_high", kind: kindReal},
				{name: "test_date", kind: kindText, notNull: true},
			},
			indexes: [][]string{{"patient_id", "analyte", "test_date"}, {"test_date"}},
			rows:    len(results),
			row: func(i int, dst []any) {
				res := &results[i]
				a := &analytes[res.analyte]
				g := 0
				if labPatients[res.patient].gender == "F" {
					g = 1
				}
				dst[0], dst[1], dst[2], dst[3] = i+1, labPatients[res.patient].id, a.name, res.value
				dst[4], dst[5], dst[6], dst[7] = a.unit, nullable(a.low[g]), nullable(a.high[g]), dateStr(res.date)
			},
		},
	}}, nil
}
