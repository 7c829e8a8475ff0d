// Package gazetteer knows the other names of common stored values: a
// country's codes and the adjective for its people ("French" for France,
// "UK" for the United Kingdom), a continent's adjective ("Asian"), a US
// state's postal code ("Texas" for TX), the letters genders are stored as
// ("female" for F). It is a leaf of understanding: the linker asks it
// for the other names of a word that matches no stored value, so that
// "customers in Texas" finds the state stored as TX and "Spanish
// speaking countries" finds Spanish or Spain.
package gazetteer

import "strings"

// Alternates returns the other names of the place a lower-case phrase
// names, lower case, or nil when it names none the gazetteer knows.
func Alternates(phrase string) []string {
	return names[strings.TrimSpace(phrase)]
}

// NounAlternates is Alternates for a phrase written as a noun, after
// "the": "the US" is the United States, where "us" alone is a pronoun.
func NounAlternates(phrase string) []string {
	return nouns[strings.TrimSpace(phrase)]
}

// IsName reports whether a lower-case phrase is the name of a place the
// gazetteer knows ("washington", "spain"), not one of its codes or the
// adjective of its people ("wa", "spanish").
func IsName(phrase string) bool { return placeNames[strings.TrimSpace(phrase)] }

var placeNames = func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(places), "\n") {
		name, _, _ := strings.Cut(line, "|")
		m[strings.ToLower(strings.TrimSpace(name))] = true
	}
	return m
}()

// names maps every name of a place to the others; nouns also maps the
// codes that are words of questions.
var names, nouns = index(false), index(true)

func index(wordsToo bool) map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(places), "\n") {
		group := strings.Split(strings.ToLower(strings.TrimSpace(line)), "|")
		for i, n := range group {
			if wordCodes[n] && !wordsToo {
				continue // "in" is Indiana's code, never Indiana
			}
			for j, o := range group {
				if i != j && n != "" && o != "" {
					m[n] = append(m[n], o)
				}
			}
		}
	}
	return m
}

// wordCodes are codes that are also words of questions: a place's name
// finds them stored, but they never stand for the place.
var wordCodes = map[string]bool{"us": true, "in": true, "me": true, "or": true, "ok": true, "hi": true, "de": true, "id": true,
	"la": true, "pa": true, "co": true, "al": true, "ma": true, "oh": true, "ar": true, "am": true, "ne": true,
	"mo": true, "mi": true, "nor": true, "can": true, "per": true, "pan": true, "col": true, "ind": true, "ga": true,
	"m": true, "f": true}

// places lists one place per line: its names, codes and the adjective of
// its people or language, separated by "|".
const places = `
Afghanistan|AF|AFG|Afghan
Albania|AL|ALB|Albanian
Algeria|DZ|DZA|Algerian
Argentina|AR|ARG|Argentine|Argentinian
Armenia|AM|ARM|Armenian
Australia|AU|AUS|Australian
Austria|AUT|Austrian
Bangladesh|BD|BGD|Bangladeshi
Belgium|BEL|Belgian
Bolivia|BO|BOL|Bolivian
Brazil|BR|BRA|Brazilian
Bulgaria|BG|BGR|Bulgarian
Cambodia|KH|KHM|Cambodian
Canada|CA|CAN|Canadian
Chile|CL|CHL|Chilean
China|CN|CHN|Chinese
Colombia|CO|COL|Colombian
Costa Rica|CR|CRI|Costa Rican
Croatia|HR|HRV|Croatian
Cuba|CU|CUB|Cuban
Cyprus|CY|CYP|Cypriot
Czech Republic|Czechia|CZ|CZE|Czech
Denmark|DK|DNK|Danish
Dominican Republic|DO|DOM|Dominican
Ecuador|EC|ECU|Ecuadorian
Egypt|EG|EGY|Egyptian
Estonia|EE|EST|Estonian
Ethiopia|ET|ETH|Ethiopian
Finland|FI|FIN|Finnish
France|FR|FRA|French
Germany|DE|DEU|German
Ghana|GH|GHA|Ghanaian
Greece|GR|GRC|Greek
Guatemala|GT|GTM|Guatemalan
Hong Kong|HK|HKG
Hungary|HU|HUN|Hungarian
Iceland|ISL|Icelandic
India|IND|Indian
Indonesia|ID|IDN|Indonesian
Iran|IR|IRN|Iranian
Iraq|IQ|IRQ|Iraqi
Ireland|IE|IRL|Irish
Israel|IL|ISR|Israeli
Italy|IT|ITA|Italian
Jamaica|JM|JAM|Jamaican
Japan|JP|JPN|Japanese
Jordan|JO|JOR|Jordanian
Kazakhstan|KZ|KAZ|Kazakh
Kenya|KE|KEN|Kenyan
South Korea|Korea|KR|KOR|Korean|South Korean
Latvia|LV|LVA|Latvian
Lebanon|LB|LBN|Lebanese
Lithuania|LT|LTU|Lithuanian
Luxembourg|LU|LUX|Luxembourgish
Malaysia|MY|MYS|Malaysian
Mexico|MX|MEX|Mexican
Morocco|MA|MAR|Moroccan
Netherlands|The Netherlands|Holland|NL|NLD|Dutch
New Zealand|NZ|NZL|New Zealander
Nigeria|NG|NGA|Nigerian
Norway|NOR|Norwegian
Pakistan|PK|PAK|Pakistani
Panama|PA|PAN|Panamanian
Paraguay|PY|PRY|Paraguayan
Peru|PE|PER|Peruvian
Philippines|PH|PHL|Filipino|Philippine
Poland|PL|POL|Polish
Portugal|PT|PRT|Portuguese
Puerto Rico|PR|PRI|Puerto Rican
Qatar|QA|QAT|Qatari
Romania|RO|ROU|Romanian
Russia|Russian Federation|RU|RUS|Russian
Saudi Arabia|SA|SAU|Saudi
Scotland|Scottish
Serbia|RS|SRB|Serbian
Singapore|SG|SGP|Singaporean
Slovakia|SK|SVK|Slovak
Slovenia|SI|SVN|Slovenian
South Africa|ZA|ZAF|South African
Spain|ES|ESP|Spanish
Sri Lanka|LK|LKA|Sri Lankan
Sweden|SE|SWE|Swedish
Switzerland|CH|CHE|Swiss
Taiwan|TW|TWN|Taiwanese
Thailand|TH|THA|Thai
Tunisia|TN|TUN|Tunisian
Turkey|Türkiye|TR|TUR|Turkish
Ukraine|UA|UKR|Ukrainian
United Arab Emirates|UAE|AE|ARE|Emirati
United Kingdom|UK|GB|GBR|Great Britain|Britain|British
United States|United States of America|USA|US|America|American
Uruguay|UY|URY|Uruguayan
Venezuela|VE|VEN|Venezuelan
Vietnam|Viet Nam|VN|VNM|Vietnamese
England|English
Wales|Welsh
Africa|African
Asia|Asian
Europe|European
North America|North American
South America|South American
Oceania|Oceanian
Antarctica|Antarctic
Alabama|AL
Alaska|AK
Arizona|AZ
Arkansas|AR
California|CA
Colorado|CO
Connecticut|CT
Delaware|DE
Florida|FL
Georgia|GA
Hawaii|HI
Idaho|ID
Illinois|IL
Indiana|IN
Iowa|IA
Kansas|KS
Kentucky|KY
Louisiana|LA
Maine|ME
Maryland|MD
Massachusetts|MA
Michigan|MI
Minnesota|MN
Mississippi|MS
Missouri|MO
Montana|MT
Nebraska|NE
Nevada|NV
New Hampshire|NH
New Jersey|NJ
New Mexico|NM
New York|NY
North Carolina|NC
North Dakota|ND
Ohio|OH
Oklahoma|OK
Oregon|OR
Pennsylvania|PA
Rhode Island|RI
South Carolina|SC
South Dakota|SD
Tennessee|TN
Texas|TX
Utah|UT
Vermont|VT
Virginia|VA
Washington|WA
West Virginia|WV
Wisconsin|WI
Wyoming|WY
District of Columbia|DC|Washington DC
Female|F|Woman|Women
Male|M|Man|Men
`
