export function Component() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <title>Forgot password · Tutorlane</title>
      <h1 className="text-3xl font-bold">Forgot your password?</h1>
    </section>
  );
}
