-- A small bike shop: departments, staff, products, customers, orders, payments, product videos, tags and wishlists.

-- Portable SQL: SQLite, PostgreSQL and MariaDB all accept it as it is.

-- departments.manager_id holds an employee_id but declares no foreign key, to avoid a cycle with employees.
-- product_tags has no key at all (and one repeated row), wishlists is a pure link table with a composite key.

CREATE TABLE departments (
  department_id INTEGER PRIMARY KEY,
  department_name VARCHAR(50) NOT NULL,
  manager_id INTEGER
);

CREATE TABLE employees (
  employee_id INTEGER PRIMARY KEY,
  first_name VARCHAR(50) NOT NULL,
  last_name VARCHAR(50) NOT NULL,
  job_title VARCHAR(50) NOT NULL,
  department_id INTEGER NOT NULL,
  reports_to INTEGER,
  hire_date DATE NOT NULL,
  birth_date DATE NOT NULL,
  salary DECIMAL(10,2) NOT NULL,
  FOREIGN KEY (department_id) REFERENCES departments (department_id),
  FOREIGN KEY (reports_to) REFERENCES employees (employee_id)
);

CREATE TABLE categories (
  category_id INTEGER PRIMARY KEY,
  category_name VARCHAR(50) NOT NULL
);

CREATE TABLE products (
  product_id INTEGER PRIMARY KEY,
  product_name VARCHAR(100) NOT NULL,
  category_id INTEGER NOT NULL,
  list_price DECIMAL(10,2) NOT NULL,
  units_in_stock INTEGER NOT NULL,
  reorder_level INTEGER NOT NULL,
  discontinued INTEGER NOT NULL,
  featured VARCHAR(1) NOT NULL,
  weight_kg DECIMAL(5,2) NOT NULL,
  FOREIGN KEY (category_id) REFERENCES categories (category_id)
);

CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  first_name VARCHAR(50) NOT NULL,
  last_name VARCHAR(50) NOT NULL,
  company VARCHAR(100) NULL,
  email VARCHAR(100) NOT NULL,
  password_hash VARCHAR(64) NOT NULL,
  city VARCHAR(50) NOT NULL,
  state VARCHAR(2) NULL,
  country VARCHAR(50) NOT NULL,
  support_rep_id INTEGER NOT NULL,
  credit_limit DECIMAL(10,2) NULL,
  FOREIGN KEY (support_rep_id) REFERENCES employees (employee_id)
);

CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  employee_id INTEGER NOT NULL,
  order_date DATE NOT NULL,
  required_date DATE NOT NULL,
  shipped_date DATE NULL,
  status VARCHAR(20) NOT NULL,
  ship_city VARCHAR(50) NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (customer_id),
  FOREIGN KEY (employee_id) REFERENCES employees (employee_id)
);

CREATE TABLE order_items (
  order_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  unit_price DECIMAL(10,2) NOT NULL,
  discount DECIMAL(4,2) NOT NULL,
  PRIMARY KEY (order_id, product_id),
  FOREIGN KEY (order_id) REFERENCES orders (order_id),
  FOREIGN KEY (product_id) REFERENCES products (product_id)
);

CREATE TABLE payments (
  payment_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  amount DECIMAL(10,2) NOT NULL,
  paid_on DATE NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (customer_id)
);

CREATE TABLE videos (
  video_id INTEGER PRIMARY KEY,
  title VARCHAR(100) NOT NULL,
  product_id INTEGER NOT NULL,
  milliseconds INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  published_on DATE NOT NULL,
  FOREIGN KEY (product_id) REFERENCES products (product_id)
);

CREATE TABLE product_tags (
  product_id INTEGER NOT NULL,
  tag VARCHAR(30) NOT NULL,
  FOREIGN KEY (product_id) REFERENCES products (product_id)
);

CREATE TABLE wishlists (
  customer_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (customer_id, product_id),
  FOREIGN KEY (customer_id) REFERENCES customers (customer_id),
  FOREIGN KEY (product_id) REFERENCES products (product_id)
);

INSERT INTO departments (department_id, department_name, manager_id) VALUES
  (1, 'Sales', 2),
  (2, 'Support', 6),
  (3, 'Warehouse', 8),
  (4, 'Management', 1),
  (5, 'IT', 10);

INSERT INTO employees (employee_id, first_name, last_name, job_title, department_id, reports_to, hire_date, birth_date, salary) VALUES
  (1, 'Robert', 'Hale', 'General Manager', 4, NULL, '2023-01-02', '1971-04-12', 98000.00),
  (2, 'Nina', 'Patel', 'Sales Manager', 1, 1, '2023-01-09', '1984-09-23', 72000.00),
  (3, 'Tomas', 'Kowalski', 'Sales Agent', 1, 2, '2023-01-16', '1990-02-14', 48000.00),
  (4, 'Grace', 'Okafor', 'Sales Agent', 1, 2, '2023-02-06', '1993-07-30', 46500.00),
  (5, 'Luis', 'Moreno', 'Sales Agent', 1, 2, '2023-03-13', '1988-11-05', 47000.00),
  (6, 'Anna', 'Kowalski', 'Support Agent', 2, 1, '2023-01-23', '1986-05-19', 42000.00),
  (7, 'Derek', 'Lin', 'Support Agent', 2, 6, '2023-04-03', '1995-12-01', 39500.00),
  (8, 'Marta', 'Silva', 'Warehouse Clerk', 3, 1, '2023-01-04', '1979-03-08', 38000.00),
  (9, 'Jake', 'Turner', 'Warehouse Clerk', 3, 8, '2023-05-15', '1998-08-21', 35500.00),
  (10, 'Priya', 'Raman', 'IT Staff', 5, 1, '2023-02-20', '1991-10-10', 61000.00);

INSERT INTO categories (category_id, category_name) VALUES
  (1, 'Road Bikes'),
  (2, 'Mountain Bikes'),
  (3, 'Kids Bikes'),
  (4, 'Electric Bikes'),
  (5, 'Accessories');

INSERT INTO products (product_id, product_name, category_id, list_price, units_in_stock, reorder_level, discontinued, featured, weight_kg) VALUES
  (1, 'Trek Domane AL 2', 1, 1099.99, 8, 3, 0, 'Y', 10.10),
  (2, 'Trek Domane SL 6', 1, 4199.99, 2, 3, 0, 'N', 8.70),
  (3, 'Specialized Allez', 1, 1199.00, 6, 3, 0, 'N', 9.40),
  (4, 'Cannondale CAAD Optimo', 1, 949.99, 0, 2, 1, 'N', 9.60),
  (5, 'Trek Fuel EX 8', 2, 3899.99, 4, 2, 0, 'Y', 14.50),
  (6, 'Trek Fuel EX 9.8', 2, 4999.99, 1, 2, 0, 'N', 13.20),
  (7, 'Trek Fuel EX 5', 2, 2699.99, 5, 2, 0, 'N', 15.30),
  (8, 'Specialized Rockhopper', 2, 649.99, 12, 4, 0, 'Y', 13.00),
  (9, 'Giant Talon 3', 2, 579.00, 0, 3, 1, 'N', 13.80),
  (10, 'Trek Precaliber 16', 3, 249.99, 9, 4, 0, 'N', 8.10),
  (11, 'Specialized Riprock 20', 3, 449.99, 3, 4, 0, 'Y', 9.90),
  (12, 'Woom 3', 3, 499.00, 7, 3, 0, 'N', 5.40),
  (13, 'Trek Allant+ 7', 4, 3599.99, 3, 2, 0, 'Y', 23.60),
  (14, 'Specialized Turbo Vado 4.0', 4, 4250.00, 2, 2, 0, 'N', 24.90),
  (15, 'Rad Power RadCity 5', 4, 1999.00, 0, 0, 1, 'N', 29.50),
  (16, 'Helmet Pro', 5, 129.99, 25, 10, 0, 'Y', 0.35),
  (17, 'Bottle Cage', 5, 15.00, 60, 20, 0, 'N', 0.05),
  (18, 'Floor Pump', 5, 49.99, 4, 8, 0, 'N', 1.40),
  (19, 'LED Light Set', 5, 39.99, 30, 12, 0, 'N', 0.20),
  (20, 'U-Lock Heavy Duty', 5, 69.99, 14, 6, 0, 'N', 1.70);

INSERT INTO customers (customer_id, first_name, last_name, company, email, password_hash, city, state, country, support_rep_id, credit_limit) VALUES
  (1, 'Justina', 'Jenkins', NULL, 'justina.jenkins@example.com', '4e77967bf1186369dc9223623482deb54ecb96f890dbfe8e8cb5438028f72f26', 'Austin', 'TX', 'USA', 6, 5000.00),
  (2, 'Marcus', 'Reed', 'Reed Cycling Club', 'marcus.reed@example.com', '1e4ae4f6f805366810259fd6440737846f2a612777e39149b38a03b85e1417aa', 'Austin', 'TX', 'USA', 6, 15000.00),
  (3, 'Olivia', 'Chen', NULL, 'olivia.chen@example.com', '9e6a20a7b4cdcba0dce0585af7fec5ff724e27005729d072d6a359615f407d8a', 'Austin', 'TX', 'USA', 7, 3000.00),
  (4, 'Daniel', 'Brooks', NULL, 'daniel.brooks@example.com', '1bb5d8f74e98e424a7be46418078b5be3268a5a22dac2c85b8540c7630d1baa7', 'Austin', 'TX', 'USA', 7, NULL),
  (5, 'Frank', 'Miller', 'Miller Logistics', 'frank.miller@example.com', '7d7ccbde72be9f50a9119f722fdcf47b1cfa1bbfde1ff1f944927bab733e426e', 'Dallas', 'TX', 'USA', 6, 10000.00),
  (6, 'Sofia', 'Ramirez', NULL, 'sofia.ramirez@example.com', 'b99ce3cdadf7bf65f9e6f08ab125d15f67925bc2751a3d9a53b9db219742ae44', 'Dallas', 'TX', 'USA', 6, 2500.00),
  (7, 'Kevin', 'Walsh', NULL, 'kevin.walsh@example.com', '13038448082fe32069ea32fd6bb8ca8f1d3b50f9cc53f7a1d88eb3036f752328', 'Dallas', 'TX', 'USA', 7, 4000.00),
  (8, 'Peter', 'Kowalski', NULL, 'peter.kowalski@example.com', 'd487ff0ca805fb2668108890c2e36935bf93f059812dfbcb0c712f998efebb37', 'New York', 'NY', 'USA', 7, 6000.00),
  (9, 'Hannah', 'Goldberg', 'Hudson Couriers', 'hannah.goldberg@example.com', '60a11e5593753de51fdca92940c7441f182b1208f1f76f887b078d56b11bcdb1', 'New York', 'NY', 'USA', 6, 20000.00),
  (10, 'Aisha', 'Johnson', NULL, 'aisha.johnson@example.com', 'daeef8a17068fa3cad102210f1da24ba3eceadaedd0bfa68da9226d5d051af7f', 'Washington', 'DC', 'USA', 6, 3500.00),
  (11, 'Justina', 'Jenkins', NULL, 'justina.jenkins2@example.com', 'bde0c0bf642d9c1ab25f06126485f47810f470de430e069a2fad694916cfa718', 'Seattle', 'WA', 'USA', 7, 4500.00),
  (12, 'Ryan', 'Foster', 'Emerald City Bikes', 'ryan.foster@example.com', 'e335178796f1939b21a73fb89f3ff2476a1ce493b3d31d573f686cb37e81338f', 'Seattle', 'WA', 'USA', 7, 12000.00),
  (13, 'Emily', 'Nguyen', NULL, 'emily.nguyen@example.com', '20cb9525353e3a7836f93af51d9ad1a73678bb3d09b0d6f85c1d2c88aa5640d5', 'San Diego', 'CA', 'USA', 6, 3000.00),
  (14, 'Carlos', 'Vega', NULL, 'carlos.vega@example.com', 'fbe76672ba78aeb40193111245f46822b320d34412d1b098793a9a1548016de7', 'San Diego', 'CA', 'USA', 7, NULL),
  (15, 'Jessica', 'Park', NULL, 'jessica.park@example.com', '74fa2dabbe0bda68878d29248e7f78075c74416da3fa9bf3da395d492cc5ec5f', 'Indianapolis', 'IN', 'USA', 6, 2000.00),
  (16, 'Tyler', 'Scott', 'Scott Film Studios', 'tyler.scott@example.com', 'ea19daede4035bf51ed4a053c7fda95f1216afb5a8d48647b68efa9b3ccc8313', 'Los Angeles', 'CA', 'USA', 7, 8000.00),
  (17, 'Megan', 'Ross', NULL, 'megan.ross@example.com', '36c682bab2f2e82690b20418fc04248b743a54d07753562b23ffba2e6dc5e84e', 'Spokane', 'WA', 'USA', 6, 1500.00),
  (18, 'Brian', 'Cole', NULL, 'brian.cole@example.com', '092af35e826239b0b4a66f868952d2230af977e72d0bec078ab5946260264443', 'San Francisco', 'CA', 'USA', 7, 5000.00),
  (19, 'Frank', 'Dubois', NULL, 'frank.dubois@example.com', '4fbb89e498fa47ff53f16ee061cde17b5eb498c94c9763b0691ead46e568338f', 'Paris', NULL, 'France', 6, 4000.00),
  (20, 'Camille', 'Laurent', 'Velo Paris', 'camille.laurent@example.com', '6750ea2b2deb4114602fdc1dbd3e95efe72b10b48948417ff6d62ee830302850', 'Paris', NULL, 'France', 7, 9000.00),
  (21, 'Julien', 'Martin', NULL, 'julien.martin@example.com', '6d42e434b2dd51c6450da317c03d7637b9185480f1e7d199e2dc6a5e2293a61c', 'Paris', NULL, 'France', 6, 2500.00),
  (22, 'Claire', 'Bernard', NULL, 'claire.bernard@example.com', '5ff5b11beac392ae8b7e79c0b2950c197263dbe176d9662931ea4844fe3990cc', 'Lyon', NULL, 'France', 7, NULL),
  (23, 'Lukas', 'Weber', NULL, 'lukas.weber@example.com', '90033e82f24245c81a5676c1fd0bf03c78f70d33677c1b19b91c31e094814713', 'Berlin', NULL, 'Germany', 6, 3000.00),
  (24, 'Mia', 'Schneider', 'Schneider Kurierdienst', 'mia.schneider@example.com', '728c507e05b581f9987918c78db7bcb790901a6e009e8b2e1b40e8044eb78ada', 'Berlin', NULL, 'Germany', 7, 7000.00),
  (25, 'Jonas', 'Fischer', NULL, 'jonas.fischer@example.com', 'd444bc7a8086913640073743ccfce212862981177f63eaed34c73f6d4a54ac91', 'Munich', NULL, 'Germany', 6, 3500.00),
  (26, 'Emma', 'Tremblay', NULL, 'emma.tremblay@example.com', 'bcc530dcdd9ae78a09188886a14315695ee62a6d0173693f04385c82c8571aaf', 'Toronto', NULL, 'Canada', 7, 4000.00),
  (27, 'Liam', 'Wilson', NULL, 'liam.wilson@example.com', 'b4bc3c541033aef00d5d2f04ff4d78cdfec05a5784b4098d609edd15c7a818a1', 'Vancouver', NULL, 'Canada', 6, 2500.00),
  (28, 'Oliver', 'Hughes', NULL, 'oliver.hughes@example.com', 'b5919e9de952f9314485a747093c11c005b9adb7469a50fd7e16511011031c46', 'London', NULL, 'United Kingdom', 7, 3000.00),
  (29, 'Sanne', 'de Vries', NULL, 'sanne.devries@example.com', 'ca59377d3ef1e0f9a93a3c4160946099d700107b657162daabcccfec40cbef5c', 'Amsterdam', NULL, 'Netherlands', 6, 2000.00),
  (30, 'Chloe', 'Taylor', NULL, 'chloe.taylor@example.com', '252150cccdbda88242b2cce55a048466dd331365d5622f7ed5f18e93bb8c324c', 'Sydney', NULL, 'Australia', 7, 3000.00);

INSERT INTO orders (order_id, customer_id, employee_id, order_date, required_date, shipped_date, status, ship_city) VALUES
  (1, 2, 3, '2023-02-03', '2023-02-17', '2023-02-08', 'Shipped', 'Austin'),
  (2, 5, 4, '2023-02-17', '2023-03-03', '2023-03-05', 'Shipped', 'Dallas'),
  (3, 9, 3, '2023-03-02', '2023-03-16', '2023-03-06', 'Shipped', 'New York'),
  (4, 1, 2, '2023-03-20', '2023-04-03', '2023-03-23', 'Shipped', 'Austin'),
  (5, 20, 5, '2023-04-05', '2023-04-19', '2023-04-26', 'Shipped', 'Paris'),
  (6, 12, 4, '2023-04-18', '2023-05-02', '2023-04-24', 'Shipped', 'Seattle'),
  (7, 8, 3, '2023-05-09', '2023-05-23', '2023-05-11', 'Shipped', 'New York'),
  (8, 2, 5, '2023-05-24', '2023-06-07', '2023-06-02', 'Shipped', 'Dallas'),
  (9, 23, 4, '2023-06-12', '2023-06-26', '2023-07-01', 'Shipped', 'Berlin'),
  (10, 11, 3, '2023-06-28', '2023-07-12', '2023-07-03', 'Shipped', 'Seattle'),
  (11, 16, 5, '2023-07-14', '2023-07-28', NULL, 'Cancelled', 'Los Angeles'),
  (12, 3, 4, '2023-08-01', '2023-08-15', '2023-08-08', 'Shipped', 'Austin'),
  (13, 24, 3, '2023-08-22', '2023-09-05', '2023-09-06', 'Shipped', 'Berlin'),
  (14, 9, 5, '2023-09-06', '2023-09-20', '2023-09-09', 'Shipped', 'Boston'),
  (15, 13, 4, '2023-09-25', '2023-10-09', '2023-09-29', 'Shipped', 'San Diego'),
  (16, 6, 3, '2023-10-10', '2023-10-24', '2023-10-16', 'Shipped', 'Dallas'),
  (17, 19, 5, '2023-10-30', '2023-11-13', '2023-11-24', 'Shipped', 'Paris'),
  (18, 26, 4, '2023-11-15', '2023-11-29', '2023-11-23', 'Shipped', 'Toronto'),
  (19, 5, 2, '2023-11-28', '2023-12-12', '2023-11-30', 'Shipped', 'Dallas'),
  (20, 10, 3, '2023-12-12', '2023-12-19', '2023-12-22', 'Shipped', 'New York'),
  (21, 2, 4, '2024-01-09', '2024-01-23', '2024-01-13', 'Shipped', 'Austin'),
  (22, 15, 5, '2024-01-26', '2024-02-09', '2024-01-31', 'Shipped', 'Houston'),
  (23, 21, 3, '2024-02-13', '2024-02-27', '2024-02-24', 'Shipped', 'Paris'),
  (24, 7, 4, '2024-03-04', '2024-03-18', NULL, 'Cancelled', 'Dallas'),
  (25, 25, 5, '2024-03-21', '2024-04-04', '2024-03-27', 'Shipped', 'Munich'),
  (26, 1, 3, '2024-04-08', '2024-04-22', '2024-04-25', 'Shipped', 'Austin'),
  (27, 27, 4, '2024-04-29', '2024-05-13', '2024-05-04', 'Shipped', 'Vancouver'),
  (28, 18, 5, '2024-05-15', '2024-05-29', '2024-05-18', 'Shipped', 'San Francisco'),
  (29, 28, 3, '2024-06-03', '2024-06-17', '2024-06-12', 'Shipped', 'London'),
  (30, 4, 4, '2024-06-24', '2024-07-08', '2024-06-28', 'Shipped', 'Austin'),
  (31, 20, 5, '2024-07-11', '2024-07-25', '2024-08-02', 'Shipped', 'Paris'),
  (32, 14, 3, '2024-08-01', '2024-08-15', '2024-08-07', 'Shipped', 'San Diego'),
  (33, 9, 4, '2024-08-20', '2024-09-03', '2024-08-25', 'Shipped', 'New York'),
  (34, 8, 5, '2024-09-09', '2024-09-23', NULL, 'On Hold', 'New York'),
  (35, 16, 3, '2024-09-30', '2024-10-14', '2024-10-03', 'Shipped', 'Los Angeles'),
  (36, 11, 4, '2024-10-21', '2024-11-04', '2024-10-31', 'Shipped', 'Seattle'),
  (37, 3, 5, '2024-11-12', '2024-11-26', NULL, 'On Hold', 'Austin'),
  (38, 12, 3, '2024-12-02', '2024-12-16', NULL, 'Pending', 'Seattle'),
  (39, 5, 4, '2024-12-05', '2024-12-19', NULL, 'Pending', 'Dallas'),
  (40, 23, 5, '2024-12-10', '2024-12-24', NULL, 'Pending', 'Berlin');

INSERT INTO order_items (order_id, product_id, quantity, unit_price, discount) VALUES
  (1, 8, 1, 649.99, 0.00),
  (1, 16, 1, 119.99, 0.00),
  (1, 17, 2, 15.00, 0.00),
  (2, 5, 2, 3899.99, 0.10),
  (2, 16, 2, 119.99, 0.10),
  (2, 20, 2, 69.99, 0.00),
  (3, 13, 2, 3599.99, 0.05),
  (3, 19, 2, 39.99, 0.00),
  (4, 1, 1, 1099.99, 0.00),
  (4, 16, 1, 119.99, 0.00),
  (5, 3, 1, 1199.00, 0.00),
  (5, 17, 1, 15.00, 0.00),
  (6, 7, 1, 2699.99, 0.00),
  (6, 18, 1, 49.99, 0.00),
  (6, 19, 1, 39.99, 0.00),
  (7, 10, 1, 249.99, 0.00),
  (7, 16, 1, 119.99, 0.00),
  (8, 9, 3, 579.00, 0.10),
  (8, 16, 3, 119.99, 0.10),
  (8, 17, 3, 15.00, 0.00),
  (9, 11, 1, 449.99, 0.00),
  (10, 1, 1, 1099.99, 0.05),
  (10, 19, 1, 39.99, 0.00),
  (10, 20, 1, 69.99, 0.00),
  (11, 6, 1, 4999.99, 0.00),
  (12, 8, 1, 649.99, 0.00),
  (12, 18, 1, 49.99, 0.00),
  (13, 14, 2, 4250.00, 0.05),
  (13, 20, 2, 69.99, 0.00),
  (14, 13, 1, 3599.99, 0.00),
  (14, 19, 2, 39.99, 0.00),
  (15, 10, 1, 249.99, 0.00),
  (15, 17, 1, 15.00, 0.00),
  (16, 16, 2, 129.99, 0.00),
  (16, 19, 2, 39.99, 0.00),
  (16, 18, 1, 49.99, 0.00),
  (16, 17, 2, 15.00, 0.00),
  (17, 2, 1, 4199.99, 0.05),
  (18, 5, 1, 3899.99, 0.00),
  (18, 16, 1, 129.99, 0.00),
  (19, 8, 2, 649.99, 0.10),
  (19, 20, 2, 69.99, 0.10),
  (20, 16, 1, 129.99, 0.00),
  (20, 19, 1, 39.99, 0.00),
  (21, 6, 2, 4999.99, 0.10),
  (21, 5, 1, 3899.99, 0.10),
  (21, 16, 3, 129.99, 0.20),
  (22, 11, 1, 449.99, 0.00),
  (22, 17, 1, 15.00, 0.00),
  (23, 3, 1, 1199.00, 0.00),
  (23, 16, 1, 129.99, 0.00),
  (23, 20, 1, 69.99, 0.00),
  (24, 13, 1, 3599.99, 0.00),
  (25, 1, 1, 1099.99, 0.00),
  (25, 19, 1, 39.99, 0.00),
  (26, 7, 1, 2699.99, 0.05),
  (26, 18, 1, 49.99, 0.00),
  (27, 8, 1, 649.99, 0.00),
  (27, 16, 1, 129.99, 0.00),
  (27, 17, 1, 15.00, 0.00),
  (28, 2, 1, 4199.99, 0.00),
  (28, 20, 1, 69.99, 0.00),
  (29, 10, 1, 249.99, 0.00),
  (29, 16, 1, 129.99, 0.00),
  (30, 19, 2, 39.99, 0.00),
  (30, 17, 2, 15.00, 0.00),
  (31, 14, 1, 4250.00, 0.05),
  (31, 16, 1, 129.99, 0.00),
  (32, 11, 1, 449.99, 0.00),
  (32, 16, 1, 129.99, 0.00),
  (33, 13, 3, 3599.99, 0.20),
  (33, 16, 3, 129.99, 0.20),
  (33, 20, 3, 69.99, 0.10),
  (34, 6, 1, 4999.99, 0.00),
  (35, 5, 1, 3899.99, 0.00),
  (35, 19, 1, 39.99, 0.00),
  (36, 1, 1, 1099.99, 0.00),
  (36, 17, 1, 15.00, 0.00),
  (36, 20, 1, 69.99, 0.00),
  (37, 7, 1, 2699.99, 0.00),
  (38, 2, 1, 4199.99, 0.00),
  (38, 16, 1, 129.99, 0.00),
  (39, 8, 2, 649.99, 0.05),
  (39, 18, 2, 49.99, 0.00),
  (40, 14, 1, 4250.00, 0.00),
  (40, 19, 1, 39.99, 0.00);

INSERT INTO payments (payment_id, customer_id, amount, paid_on) VALUES
  (1, 2, 1200.00, '2023-02-10'),
  (2, 5, 8000.00, '2023-03-05'),
  (3, 9, 6500.00, '2023-03-16'),
  (4, 1, 1219.98, '2023-03-24'),
  (5, 20, 1214.00, '2023-04-30'),
  (6, 12, 2789.97, '2023-04-25'),
  (7, 8, 369.98, '2023-05-12'),
  (8, 2, 2000.00, '2023-06-05'),
  (9, 23, 449.99, '2023-07-03'),
  (10, 11, 1150.00, '2023-07-05'),
  (11, 3, 699.98, '2023-08-09'),
  (12, 24, 8215.00, '2023-09-10'),
  (13, 9, 3679.97, '2023-09-12'),
  (14, 13, 264.99, '2023-10-01'),
  (15, 6, 500.00, '2023-10-18'),
  (16, 19, 3989.99, '2023-11-28'),
  (17, 26, 4029.98, '2023-11-25'),
  (18, 5, 1297.00, '2023-12-01'),
  (19, 10, 169.98, '2023-12-25'),
  (20, 2, 10000.00, '2024-01-15'),
  (21, 15, 464.99, '2024-01-31'),
  (22, 21, 1398.98, '2024-02-26'),
  (23, 25, 1139.98, '2024-03-29'),
  (24, 1, 2750.00, '2024-04-30'),
  (25, 27, 214.98, '2024-05-06'),
  (26, 18, 4269.98, '2024-05-20'),
  (27, 28, 379.98, '2024-06-14'),
  (28, 20, 4170.00, '2024-08-05'),
  (29, 9, 9000.00, '2024-08-27'),
  (30, 16, 3932.98, '2024-10-05');

INSERT INTO videos (video_id, title, product_id, milliseconds, bytes, published_on) VALUES
  (1, 'Trek Domane AL 2 walkaround', 1, 184000, 46000000, '2023-02-14'),
  (2, 'Trek Fuel EX 8 trail test', 5, 742000, 241150000, '2023-03-22'),
  (3, 'Trek Fuel EX 9.8 first ride', 6, 1500000, 512300000, '2023-05-30'),
  (4, 'Specialized Rockhopper setup guide', 8, 415000, 98770000, '2023-06-18'),
  (5, 'Trek Allant+ 7 commuting review', 13, 656000, 187400000, '2023-09-04'),
  (6, 'Helmet Pro fitting guide', 16, 95000, 21380000, '2023-10-11'),
  (7, 'Fixing a flat with the Floor Pump', 18, 45000, 9950000, '2024-01-08'),
  (8, 'LED Light Set installation', 19, 128000, 27640000, '2024-02-19'),
  (9, 'Specialized Turbo Vado 4.0 range test', 14, 1212000, 398600000, '2024-04-03'),
  (10, 'Trek Precaliber 16 first bike tips', 10, 233000, 61270000, '2024-06-12'),
  (11, 'U-Lock Heavy Duty security test', 20, 301000, 74900000, '2024-08-27'),
  (12, 'Specialized Riprock 20 review', 11, 512000, 139500000, '2024-11-05');

INSERT INTO product_tags (product_id, tag) VALUES
  (1, 'road'),
  (1, 'commuter'),
  (2, 'carbon'),
  (2, 'road'),
  (3, 'road'),
  (5, 'trail'),
  (5, 'full-suspension'),
  (6, 'carbon'),
  (6, 'trail'),
  (6, 'full-suspension'),
  (7, 'trail'),
  (8, 'trail'),
  (8, 'sale'),
  (9, 'sale'),
  (10, 'kids'),
  (11, 'kids'),
  (12, 'kids'),
  (13, 'commuter'),
  (13, 'electric'),
  (14, 'electric'),
  (14, 'commuter'),
  (16, 'safety'),
  (19, 'safety'),
  (20, 'commuter'),
  (8, 'sale');

INSERT INTO wishlists (customer_id, product_id) VALUES
  (1, 6),
  (1, 13),
  (3, 5),
  (8, 14),
  (9, 6),
  (11, 12),
  (17, 6),
  (17, 16),
  (19, 4),
  (20, 2),
  (22, 14),
  (24, 15),
  (28, 7),
  (29, 1),
  (30, 12);
