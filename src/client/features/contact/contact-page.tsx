export function Component() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <title>Contact us · Tutorlane</title>
      <h1 className="text-3xl font-bold">Contact Us</h1>
    </section>
  );
}
