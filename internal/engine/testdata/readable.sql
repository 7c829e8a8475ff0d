-- A small clinic-and-shop schema for the answer-metadata tests: orders
-- whose customer may be missing, a lab result beside its normal limits.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id), ordered_on DATE NOT NULL, amount REAL NOT NULL, paid INTEGER NOT NULL);
CREATE TABLE results (id INTEGER PRIMARY KEY, taken_on DATE NOT NULL, test TEXT NOT NULL, value REAL NOT NULL, ref_low REAL, ref_high REAL);
INSERT INTO customers VALUES (1, 'Ada Lovelace'), (2, 'Alan Turing');
INSERT INTO orders VALUES (1, 1, '2024-01-05', 120.5, 1), (2, 2, '2024-01-20', 80, 0), (3, NULL, '2024-02-03', 42.25, 1), (4, 1, '2024-02-10', 10, 1), (5, 2, '2024-03-05', 15, 0);
INSERT INTO results VALUES (1, '2024-01-02', 'Glucose', 5.1, 3.9, 5.5), (2, '2024-02-02', 'Glucose', 6.3, 3.9, 5.5), (3, '2024-03-02', 'Glucose', 3.1, 3.9, 5.5);
