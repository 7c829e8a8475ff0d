package demo

// Name lists shared by the generators. They are read-only tables; nothing
// writes to them.

var maleFirstNames = []string{
	"James", "Robert", "John", "Michael", "David", "William", "Richard", "Joseph",
	"Thomas", "Charles", "Christopher", "Daniel", "Matthew", "Anthony", "Mark",
	"Donald", "Steven", "Paul", "Andrew", "Joshua", "Kenneth", "Kevin", "Brian",
	"George", "Timothy", "Ronald", "Edward", "Jason", "Jeffrey", "Ryan", "Jacob",
	"Gary", "Nicholas", "Eric", "Jonathan", "Stephen", "Larry", "Justin", "Scott",
	"Brandon", "Benjamin", "Samuel", "Gregory", "Alexander", "Frank", "Patrick",
	"Raymond", "Jack", "Dennis", "Jerry", "Tyler", "Aaron", "Jose", "Adam",
	"Nathan", "Henry", "Douglas", "Zachary", "Peter", "Kyle", "Walter", "Harold",
	"Carl", "Arthur", "Roger", "Luis", "Wei", "Hiroshi", "Rajesh", "Omar",
}

var femaleFirstNames = []string{
	"Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan",
	"Jessica", "Sarah", "Karen", "Lisa", "Nancy", "Betty", "Margaret", "Sandra",
	"Ashley", "Kimberly", "Emily", "Donna", "Michelle", "Carol", "Amanda",
	"Dorothy", "Melissa", "Deborah", "Stephanie", "Rebecca", "Sharon", "Laura",
	"Cynthia", "Kathleen", "Amy", "Angela", "Shirley", "Anna", "Brenda", "Pamela",
	"Emma", "Nicole", "Helen", "Samantha", "Katherine", "Christine", "Debra",
	"Rachel", "Carolyn", "Janet", "Catherine", "Maria", "Heather", "Diane",
	"Ruth", "Julie", "Olivia", "Joyce", "Virginia", "Victoria", "Kelly", "Lauren",
	"Christina", "Joan", "Evelyn", "Judith", "Megan", "Priya", "Mei", "Aisha",
	"Yuki", "Fatima", "Elena",
}

var lastNames = []string{
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
	"Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson",
	"Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez",
	"Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis",
	"Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres",
	"Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall",
	"Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Gomez", "Phillips",
	"Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
	"Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez",
	"Ortiz", "Morgan", "Cooper", "Peterson", "Bailey", "Reed", "Kelly", "Howard",
	"Ramos", "Kim", "Cox", "Ward", "Richardson", "Watson", "Brooks", "Chavez",
	"Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price",
	"Alvarez", "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster",
	"Jimenez", "Chen", "Wang", "Singh", "Okafor", "Kowalski", "O'Brien",
	"Schmidt", "Novak", "Larsen", "Tanaka",
}

// usCity is a US city and its state's postal abbreviation.
type usCity struct{ name, state string }

var usCities = []usCity{
	{"New York", "NY"}, {"Los Angeles", "CA"}, {"Chicago", "IL"}, {"Houston", "TX"},
	{"Phoenix", "AZ"}, {"Philadelphia", "PA"}, {"San Antonio", "TX"}, {"San Diego", "CA"},
	{"Dallas", "TX"}, {"Austin", "TX"}, {"Jacksonville", "FL"}, {"San Jose", "CA"},
	{"Fort Worth", "TX"}, {"Columbus", "OH"}, {"Charlotte", "NC"}, {"Indianapolis", "IN"},
	{"San Francisco", "CA"}, {"Seattle", "WA"}, {"Denver", "CO"}, {"Oklahoma City", "OK"},
	{"Nashville", "TN"}, {"Washington", "DC"}, {"El Paso", "TX"}, {"Las Vegas", "NV"},
	{"Boston", "MA"}, {"Detroit", "MI"}, {"Portland", "OR"}, {"Louisville", "KY"},
	{"Memphis", "TN"}, {"Baltimore", "MD"}, {"Milwaukee", "WI"}, {"Albuquerque", "NM"},
	{"Tucson", "AZ"}, {"Fresno", "CA"}, {"Sacramento", "CA"}, {"Mesa", "AZ"},
	{"Atlanta", "GA"}, {"Kansas City", "MO"}, {"Colorado Springs", "CO"}, {"Omaha", "NE"},
	{"Raleigh", "NC"}, {"Miami", "FL"}, {"Virginia Beach", "VA"}, {"Long Beach", "CA"},
	{"Oakland", "CA"}, {"Minneapolis", "MN"}, {"Tulsa", "OK"}, {"Bakersfield", "CA"},
	{"Tampa", "FL"}, {"Arlington", "TX"}, {"Wichita", "KS"}, {"Aurora", "CO"},
	{"New Orleans", "LA"}, {"Cleveland", "OH"}, {"Honolulu", "HI"}, {"Anaheim", "CA"},
	{"Lexington", "KY"}, {"Stockton", "CA"}, {"Henderson", "NV"}, {"Saint Paul", "MN"},
	{"Cincinnati", "OH"}, {"Pittsburgh", "PA"}, {"Greensboro", "NC"}, {"Anchorage", "AK"},
	{"Plano", "TX"}, {"Lincoln", "NE"}, {"Orlando", "FL"}, {"Irvine", "CA"},
	{"Newark", "NJ"}, {"Toledo", "OH"}, {"Durham", "NC"}, {"Chula Vista", "CA"},
	{"Fort Wayne", "IN"}, {"Jersey City", "NJ"}, {"St. Petersburg", "FL"}, {"Laredo", "TX"},
	{"Madison", "WI"}, {"Chandler", "AZ"}, {"Buffalo", "NY"}, {"Lubbock", "TX"},
	{"Scottsdale", "AZ"}, {"Reno", "NV"}, {"Glendale", "AZ"}, {"Gilbert", "AZ"},
	{"Winston-Salem", "NC"}, {"Norfolk", "VA"}, {"Chesapeake", "VA"}, {"Boise", "ID"},
	{"Richmond", "VA"}, {"Spokane", "WA"}, {"Des Moines", "IA"}, {"Birmingham", "AL"},
	{"Salt Lake City", "UT"}, {"Little Rock", "AR"}, {"Providence", "RI"}, {"Knoxville", "TN"},
	{"Savannah", "GA"}, {"Burlington", "VT"}, {"Charleston", "SC"}, {"Santa Fe", "NM"},
}

// stateName returns the name of the state with postal abbreviation abbr.
func stateName(abbr string) string {
	for _, s := range usStates {
		if s[0] == abbr {
			return s[1]
		}
	}
	return abbr
}

var usStates = [][2]string{
	{"AK", "Alaska"}, {"AL", "Alabama"}, {"AR", "Arkansas"}, {"AZ", "Arizona"},
	{"CA", "California"}, {"CO", "Colorado"}, {"DC", "District of Columbia"},
	{"FL", "Florida"}, {"GA", "Georgia"}, {"HI", "Hawaii"}, {"IA", "Iowa"},
	{"ID", "Idaho"}, {"IL", "Illinois"}, {"IN", "Indiana"}, {"KS", "Kansas"},
	{"KY", "Kentucky"}, {"LA", "Louisiana"}, {"MA", "Massachusetts"},
	{"MD", "Maryland"}, {"MI", "Michigan"}, {"MN", "Minnesota"}, {"MO", "Missouri"},
	{"NC", "North Carolina"}, {"NE", "Nebraska"}, {"NJ", "New Jersey"},
	{"NM", "New Mexico"}, {"NV", "Nevada"}, {"NY", "New York"}, {"OH", "Ohio"},
	{"OK", "Oklahoma"}, {"OR", "Oregon"}, {"PA", "Pennsylvania"},
	{"RI", "Rhode Island"}, {"SC", "South Carolina"}, {"TN", "Tennessee"},
	{"TX", "Texas"}, {"UT", "Utah"}, {"VA", "Virginia"}, {"VT", "Vermont"},
	{"WA", "Washington"}, {"WI", "Wisconsin"},
}
