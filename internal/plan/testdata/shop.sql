-- The tables of shop.yaml and a few rows, loaded into an in-memory SQLite
-- database to run the compiled SQLite statements. Dates are text, as
-- SQLite keeps them. Three products cost 40 and three tie at 120 revenue,
-- so top-N answers stop inside ties.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT, vip INTEGER, signup_date TEXT, referred_by INTEGER, credit_limit REAL);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL, weight REAL, discontinued TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, ordered_at TEXT, status TEXT);
CREATE TABLE order_lines (id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, quantity INTEGER, unit_price REAL);
-- foreign keys lead an index, as in most databases; no ANALYZE has run
-- (no sqlite_stat1), as in most SQLite files Clarify opens read-only
CREATE INDEX orders_customer ON orders (customer_id, ordered_at);
CREATE INDEX order_lines_order ON order_lines (order_id);

INSERT INTO customers VALUES
  (1, 'Ann Lee', 'Oslo', 1, '2022-03-14', NULL, 5000),
  (2, 'Bjorn Dahl', 'Bergen', 0, '2023-01-09', 1, 2000),
  (3, 'Cara Holm', 'Oslo', 0, '2023-06-30', 1, NULL),
  (4, 'Dan Berg', 'Trondheim', 1, '2024-02-01', 2, 3000),
  (5, 'Eva Strand', NULL, 0, '2024-05-20', NULL, 1000);

INSERT INTO products VALUES
  (1, 'Kettle', 'kitchen', 40, 1.2, 'N'),
  (2, 'Toaster', 'kitchen', 55, 2.0, 'N'),
  (3, 'Lamp', 'living', 40, 3.5, 'N'),
  (4, 'Rug', 'living', 120, 6.0, 'Y'),
  (5, 'Mug', 'kitchen', 8.5, 0.3, 'N'),
  (6, 'Vase', 'living', 40, 1.0, 'Y');

INSERT INTO orders VALUES
  (1, 1, '2023-11-05 10:00:00', 'delivered'),
  (2, 1, '2024-01-15 09:30:00', 'delivered'),
  (3, 2, '2024-01-20 14:00:00', 'shipped'),
  (4, 3, '2024-02-02 08:15:00', 'cancelled'),
  (5, 4, '2024-03-10 17:45:00', 'pending'),
  (6, 1, '2024-03-28 11:00:00', 'shipped'),
  (7, 2, '2024-03-28 11:00:00', 'delivered');

INSERT INTO order_lines VALUES
  (1, 1, 1, 2, 40),
  (2, 1, 5, 4, 8.5),
  (3, 2, 4, 1, 120),
  (4, 3, 2, 1, 55),
  (5, 3, 5, 2, 8.5),
  (6, 4, 3, 1, 40),
  (7, 5, 1, 1, 40),
  (8, 6, 6, 3, 40),
  (9, 7, 2, 2, 55),
  (10, 7, 3, 1, 40);
