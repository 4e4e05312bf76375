export function Component() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <title>Create your account · Tutorlane</title>
      <h1 className="text-3xl font-bold">Create your account</h1>
    </section>
  );
}
